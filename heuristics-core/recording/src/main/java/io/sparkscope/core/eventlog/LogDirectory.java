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
 *
 * <p>Databricks writes one application as a folder of rollover files ({@code eventlog-YYYY-MM-DD--HH-MM.gz} and the
 * current {@code eventlog}), nested under cluster and driver folders. Such a folder is one log, whether it is the
 * directory itself or a sub-folder up to {@link #ROLLOVER_DEPTH} levels down; other sub-folders hold nothing for a
 * scan, as for the History Server.
 */
public final class LogDirectory {
    /**
     * How deep sub-folders are searched for Databricks rollover folders: Databricks puts one under
     * {@code <cluster>/eventlog/<cluster>_<driver ip>/<context id>/}, so a watch of the log root finds it.
     */
    public static final int ROLLOVER_DEPTH = 4;

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
     * @param rollover for a Databricks rollover folder (key and path: the folder; size and modified: its files'
     *                 bytes and the newest one's time), its files in time order as one log; null otherwise
     */
    public record Entry(String key, Path path, boolean rolling, long size, long modified, boolean inProgress,
                        EventLogSource rollover) {
    }

    /** A rolling log looked at inside: its source, the bytes of its parts and the newest part's time. */
    public record RollingState(EventLogSource source, long size, long modified) {
    }

    /**
     * The logs directly in {@code dir}, sorted by key, and the Databricks rollover folders (the directory itself, or
     * sub-folders up to {@link #ROLLOVER_DEPTH} deep). Hidden files, checksums and other obvious non-logs are left
     * out without a look inside; whether a file really is an event log is for {@link #whyNotAnEventLog} to say.
     *
     * @throws IOException the directory cannot be listed (the message names it)
     */
    public static List<Entry> list(Path dir) throws IOException {
        List<Entry> entries = new ArrayList<>();
        Listed listed = Listed.of(dir);
        EventLogSource rollover = rollover(dir, listed, entries);
        for (int i = 0; i < listed.paths.size(); i++) {
            Path p = listed.paths.get(i);
            BasicFileAttributes a = listed.attributes.get(i);
            String name = p.getFileName().toString();
            if (a.isDirectory()) {
                if (FileNames.isRollingDir(name)) {
                    entries.add(new Entry(p.toString(), p, true, a.size(), a.lastModifiedTime().toMillis(), false,
                            null));
                } else if (!name.startsWith(".")) {
                    findRollovers(p, 1, entries);
                }
            } else if (a.isRegularFile() && !FileNames.isObviousNonLog(name)
                    && (rollover == null || !rollover.parts().contains(p))) {
                String key = p.toString();
                boolean inProgress = name.endsWith(FileNames.IN_PROGRESS);
                if (inProgress) {
                    key = key.substring(0, key.length() - FileNames.IN_PROGRESS.length());
                }
                entries.add(new Entry(key, p, false, a.size(), a.lastModifiedTime().toMillis(), inProgress, null));
            }
        }
        entries.sort((x, y) -> x.key().compareTo(y.key()));
        return entries;
    }

    /** The entries of one listing with their attributes (an entry gone between the listing and the look is left out). */
    private record Listed(List<Path> paths, List<BasicFileAttributes> attributes) {
        static Listed of(Path dir) throws IOException {
            List<Path> paths = new ArrayList<>();
            List<BasicFileAttributes> attributes = new ArrayList<>();
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
                for (Path p : stream) {
                    try {
                        attributes.add(Files.readAttributes(p, BasicFileAttributes.class));
                        paths.add(p);
                    } catch (IOException e) {
                        // gone between the listing and the look: the next scan sees what replaced it
                    }
                }
            }
            return new Listed(paths, attributes);
        }
    }

    /** Adds {@code dir}'s Databricks rollover, if it holds one, as one entry; returns it (null when none). */
    private static EventLogSource rollover(Path dir, Listed listed, List<Entry> entries) {
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < listed.paths.size(); i++) {
            if (listed.attributes.get(i).isRegularFile()) {
                files.add(listed.paths.get(i));
            }
        }
        EventLogSource source = LogDiscovery.databricksRollover(dir, files);
        if (source == null) {
            return null;
        }
        long size = 0;
        long modified = 0;
        for (int i = 0; i < listed.paths.size(); i++) {
            if (source.parts().contains(listed.paths.get(i))) {
                size += listed.attributes.get(i).size();
                modified = Math.max(modified, listed.attributes.get(i).lastModifiedTime().toMillis());
            }
        }
        entries.add(new Entry(dir.toString(), dir, true, size, modified, false, source));
        return source;
    }

    /** A sub-folder: a rollover folder is one entry; else its own sub-folders are searched, to the depth limit. */
    private static void findRollovers(Path dir, int depth, List<Entry> entries) {
        Listed listed;
        try {
            listed = Listed.of(dir);
        } catch (IOException e) {
            return; // a sub-folder that cannot be listed now (gone, or no permission): the next scan looks again
        }
        if (rollover(dir, listed, entries) != null || depth >= ROLLOVER_DEPTH) {
            return;
        }
        for (int i = 0; i < listed.paths.size(); i++) {
            String name = listed.paths.get(i).getFileName().toString();
            if (listed.attributes.get(i).isDirectory() && !name.startsWith(".") && !FileNames.isRollingDir(name)) {
                findRollovers(listed.paths.get(i), depth + 1, entries);
            }
        }
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
