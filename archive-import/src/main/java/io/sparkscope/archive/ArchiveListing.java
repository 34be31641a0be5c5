package io.sparkscope.archive;

import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;

import io.sparkscope.core.eventlog.EventLogException;
import io.sparkscope.core.eventlog.LogDirectory;
import io.sparkscope.core.eventlog.LogLocations;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The logs of an archive, found the way {@code import} finds them (files and rolling {@code eventlog_v2_*}
 * directories, in sub-folders up to eight deep, hidden entries and checksums left out, each log once however many
 * links lead to it) but without opening any file: on HDFS or S3 a listing per folder, sizes included. Whether a
 * file really is an event log is the task's look, in parallel.
 */
final class ArchiveListing {
    /** As deep as {@code import} searches a directory. */
    static final int MAX_DEPTH = 8;
    private static final String IN_PROGRESS = ".inprogress";

    /** @param otherFiles hidden files, checksums, Spark's status markers: left out without a look */
    record Listing(List<LogRef> logs, int otherFiles) {
    }

    private final Consumer<String> warnings;
    private final boolean local;
    private final Set<Path> dirsSeen = new HashSet<>();
    private final Map<Path, Path> logsSeen = new HashMap<>();
    private final List<LogRef> logs = new ArrayList<>();
    private int otherFiles;

    private ArchiveListing(Path root, Consumer<String> warnings) {
        this.warnings = warnings;
        this.local = root.getFileSystem() == FileSystems.getDefault();
    }

    /**
     * @throws EventLogException one line naming the location: missing, unreadable, or a directory without logs
     */
    static Listing list(Path root, Consumer<String> warnings) throws EventLogException {
        ArchiveListing l = new ArchiveListing(root, warnings);
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(root, BasicFileAttributes.class);
        } catch (IOException e) {
            throw new EventLogException(LogLocations.mask(root.toString()) + ": no such file or directory");
        }
        String name = fileName(root);
        if (a.isRegularFile()) {
            l.addFile(root, a); // named explicitly: a log to read, as import reads it
        } else if (a.isDirectory() && isRollingDir(name)) {
            l.addRolling(root);
            if (l.logs.isEmpty()) {
                throw new EventLogException(LogLocations.mask(root.toString())
                        + ": rolling event log directory without events_ files");
            }
        } else if (a.isDirectory()) {
            l.seenDir(root);
            l.walk(root, 0);
            if (l.logs.isEmpty()) {
                throw new EventLogException(LogLocations.mask(root.toString()) + ": no event logs in this directory"
                        + (l.otherFiles > 0 ? " (" + l.otherFiles + " other files left out)" : ""));
            }
        } else {
            throw new EventLogException(LogLocations.mask(root.toString()) + ": neither a regular file nor a directory");
        }
        l.logs.sort(Comparator.comparing(LogRef::location));
        return new Listing(List.copyOf(l.logs), l.otherFiles);
    }

    private void walk(Path dir, int depth) {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            stream.forEach(entries::add);
        } catch (IOException | RuntimeException e) {
            warnings.accept(LogLocations.mask(dir + ": cannot list directory (" + e.getMessage() + "); skipped"));
            return;
        }
        entries.sort(Comparator.comparing(Path::toString));
        // Databricks writes one application as dated rollover files plus the current one: one log, as import reads it
        EventLogSource rollover = EventLogReader.databricksRollover(dir);
        if (rollover != null && firstTime(dir)) {
            long[] sizeAndModified = sizeAndModified(rollover.parts());
            logs.add(new LogRef(dir.toString(), dir.toString(), true, sizeAndModified[0], sizeAndModified[1], false));
        }
        for (Path entry : entries) {
            if (rollover != null && rollover.parts().contains(entry)) {
                continue;
            }
            String name = fileName(entry);
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(entry, BasicFileAttributes.class);
            } catch (IOException e) {
                continue; // gone between the listing and the look
            }
            if (a.isDirectory()) {
                if (name.startsWith(".")) {
                    continue;
                }
                if (isRollingDir(name)) {
                    if (firstTime(entry)) {
                        addRolling(entry);
                    }
                } else if (depth < MAX_DEPTH && !seenDir(entry)) {
                    walk(entry, depth + 1);
                } else if (depth < MAX_DEPTH && Files.isSymbolicLink(entry)) {
                    warnings.accept(LogLocations.mask(entry + ": a link to a directory already searched; skipped"));
                }
            } else if (a.isRegularFile()) {
                if (isObviousNonLog(name)) {
                    otherFiles++;
                } else if (firstTime(entry)) {
                    addFile(entry, a);
                }
            }
        }
    }

    private void addFile(Path file, BasicFileAttributes a) {
        String location = file.toString();
        String key = location.endsWith(IN_PROGRESS) ? location.substring(0, location.length() - IN_PROGRESS.length())
                : location;
        logs.add(new LogRef(location, key, false, a.size(), a.lastModifiedTime().toMillis(),
                location.endsWith(IN_PROGRESS)));
    }

    /** The bytes of a log's parts and the newest part's modification time (epoch ms); a part gone counts nothing. */
    static long[] sizeAndModified(List<Path> parts) {
        long size = 0;
        long modified = 0;
        for (Path part : parts) {
            try {
                BasicFileAttributes a = Files.readAttributes(part, BasicFileAttributes.class);
                size += a.size();
                modified = Math.max(modified, a.lastModifiedTime().toMillis());
            } catch (IOException e) {
                // gone between the listing and the look: the reader reads what is there
            }
        }
        return new long[]{size, modified};
    }

    private void addRolling(Path dir) {
        LogDirectory.RollingState r = LogDirectory.rolling(dir, w -> warnings.accept(LogLocations.mask(w)));
        if (r == null) {
            warnings.accept(LogLocations.mask(dir + ": rolling event log directory without events_ files; skipped"));
            return;
        }
        logs.add(new LogRef(dir.toString(), dir.toString(), true, r.size(), r.modified(), r.source().inProgress()));
    }

    /** True when this directory (by its real path) was searched already; registers it otherwise. */
    private boolean seenDir(Path dir) {
        return !dirsSeen.add(real(dir));
    }

    /** False (after a warning) when this log was found already by another path. */
    private boolean firstTime(Path log) {
        Path earlier = logsSeen.putIfAbsent(real(log), log);
        if (earlier != null) {
            warnings.accept(LogLocations.mask(log + ": the same log as " + earlier + "; read once"));
            return false;
        }
        return true;
    }

    /**
     * A local path's real path, so links cannot make one log two. Object stores have no links, and asking each path
     * for its real one would cost a request per log: their paths are taken as they are.
     */
    private Path real(Path p) {
        if (!local) {
            return p;
        }
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p.toAbsolutePath().normalize();
        }
    }

    // Spark's naming rules as LogDirectory and LogDiscovery apply them (FileNames is not public).
    static boolean isRollingDir(String name) {
        return name.startsWith("eventlog_v2_");
    }

    static boolean isObviousNonLog(String name) {
        return name.startsWith(".") || name.startsWith("_") || name.endsWith(".crc") || name.startsWith("appstatus_");
    }

    private static String fileName(Path p) {
        Path name = p.getFileName();
        return name == null ? p.toString() : name.toString();
    }
}
