package io.sparkscope.core.eventlog;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One look at an event-log directory as Spark's History Server takes it on each scan: the logs at its top level
 * (files, and rolling {@code eventlog_v2_*} directories), each with its size and time, without reading any of them.
 * A directory of 10 000 logs is one listing (on HDFS or S3 one call, the sizes coming with it).
 */
public final class LogDirectory {
    private LogDirectory() {
    }

    /**
     * A log found by a scan.
     *
     * @param key      what names the log whatever its state: its location without {@code .inprogress}, so a log
     *                 that Spark renames when the application ends is still the same log
     * @param path     the file or rolling directory now
     * @param rolling  a rolling log's directory
     * @param size     the file's bytes; for a rolling directory, its own size as the filesystem reports it
     *                 (see {@link #rolling})
     * @param modified the file's (or directory's) last modification, epoch ms
     * @param inProgress the name says the application is still writing it (for a rolling log: unknown here)
     */
    public record Entry(String key, Path path, boolean rolling, long size, long modified, boolean inProgress) {
    }

    /** A rolling log looked at inside: its source, the bytes of its parts and the newest part's time. */
    public record RollingState(EventLogSource source, long size, long modified) {
    }

    /**
     * The logs directly in {@code dir}, sorted by key. Hidden files, checksums and other obvious non-logs are left
     * out without a look inside; whether a file really is an event log is for {@link #isEventLog} to say.
     *
     * @throws IOException the directory cannot be listed (the message names it)
     */
    public static List<Entry> list(Path dir) throws IOException {
        List<Entry> entries = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path p : stream) {
                String name = p.getFileName().toString();
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(p, BasicFileAttributes.class);
                } catch (IOException e) {
                    continue; // gone between the listing and the look: the next scan sees what replaced it
                }
                if (a.isDirectory()) {
                    if (FileNames.isRollingDir(name)) {
                        entries.add(new Entry(p.toString(), p, true, a.size(), a.lastModifiedTime().toMillis(), false));
                    }
                } else if (a.isRegularFile() && !FileNames.isObviousNonLog(name)) {
                    String key = p.toString();
                    boolean inProgress = name.endsWith(FileNames.IN_PROGRESS);
                    if (inProgress) {
                        key = key.substring(0, key.length() - FileNames.IN_PROGRESS.length());
                    }
                    entries.add(new Entry(key, p, false, a.size(), a.lastModifiedTime().toMillis(), inProgress));
                }
            }
        }
        entries.sort((x, y) -> x.key().compareTo(y.key()));
        return entries;
    }

    /** A rolling directory's parts and completeness, or null (with a warning) when it holds no events_ file. */
    public static RollingState rolling(Path dir, Consumer<String> warnings) {
        EventLogSource source = LogDiscovery.rolling(dir, warnings);
        if (source == null) {
            return null;
        }
        long size = 0;
        long modified = 0;
        for (Path part : source.parts()) {
            try {
                BasicFileAttributes a = Files.readAttributes(part, BasicFileAttributes.class);
                size += a.size();
                modified = Math.max(modified, a.lastModifiedTime().toMillis());
            } catch (IOException e) {
                // a part compacted away since the listing: counted as nothing; the next scan sees the new list
            }
        }
        return new RollingState(source, size, modified);
    }

    /** Null when the file looks like an event log (JSON lines or Spark-compressed events), else why not. */
    public static String whyNotAnEventLog(Path file) {
        return LogDiscovery.notAnEventLog(file);
    }
}
