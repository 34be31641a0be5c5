package io.sparkscope.core.eventlog;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** Finds the event logs under a path: Spark's single-file and rolling layouts, in a stable order. */
final class LogDiscovery {
    /** How deep a directory argument is searched (a history folder, or a tree of them). */
    private static final int MAX_DEPTH = 8;
    /** Bytes of (decompressed) head looked at to decide whether a file is an event log. */
    private static final int SNIFF_WINDOW = 1 << 16;

    private LogDiscovery() {
    }

    static List<EventLogSource> discover(Path path, Consumer<String> warnings) throws EventLogException {
        if (!Files.exists(path)) {
            throw new EventLogException(path + ": no such file or directory");
        }
        if (!Files.isReadable(path)) {
            throw new EventLogException(path + ": not readable (permission denied)");
        }
        if (Files.isRegularFile(path)) {
            // named explicitly: always a log to read; the reader reports what is wrong with it. A Databricks
            // rollover file is one piece of an application: it is read with the rest of its rollover.
            if (FileNames.databricksRolloverKey(fileName(path)) != null && path.getParent() != null) {
                EventLogSource rollover = databricksRollover(path.getParent(), siblings(path.getParent()));
                if (rollover != null && rollover.parts().size() > 1) {
                    warnings.accept(path + ": one of " + rollover.parts().size() + " Databricks rollover files in "
                            + path.getParent() + "; all are read, in time order, as one application");
                    return List.of(rollover);
                }
            }
            return List.of(EventLogSource.ofFile(path));
        }
        if (!Files.isDirectory(path)) {
            throw new EventLogException(path + ": neither a regular file nor a directory");
        }
        if (FileNames.isRollingDir(fileName(path))) {
            EventLogSource rolling = rolling(path, warnings);
            if (rolling == null) {
                throw new EventLogException(path + ": " + whyNoParts(path));
            }
            return List.of(rolling);
        }
        List<EventLogSource> found = new ArrayList<>();
        int[] skipped = {0};
        Walk walk = new Walk(warnings);
        walk.seenDir(path);
        walk(path, 0, found, skipped, walk);
        if (found.isEmpty()) {
            throw new EventLogException(path + ": no event logs in this directory"
                    + (skipped[0] > 0 ? " (" + skipped[0] + " other files skipped)" : ""));
        }
        found.sort(Comparator.comparing(s -> s.path().toString()));
        return List.copyOf(found);
    }

    /**
     * What a directory walk has met, by real path: a symbolic link back up the tree (a loop) or two links to the
     * same file must not give one log several times.
     */
    private static final class Walk {
        final Consumer<String> warnings;
        private final java.util.Set<Path> dirs = new java.util.HashSet<>();
        private final java.util.Map<Path, Path> logs = new java.util.HashMap<>();

        Walk(Consumer<String> warnings) {
            this.warnings = warnings;
        }

        /** True when this directory (by its real path) was walked already; registers it otherwise. */
        boolean seenDir(Path dir) {
            Path real = real(dir);
            return !dirs.add(real);
        }

        /** False (after a warning) when this file or rolling directory was found already by another path. */
        boolean firstTime(Path log) {
            Path real = real(log);
            Path earlier = logs.putIfAbsent(real, log);
            if (earlier != null) {
                warnings.accept(log + ": the same log as " + earlier + " (links to " + real + "); read once");
                return false;
            }
            return true;
        }

        private static Path real(Path p) {
            try {
                return p.toRealPath();
            } catch (IOException e) {
                return p.toAbsolutePath().normalize();
            }
        }
    }

    private static void walk(Path dir, int depth, List<EventLogSource> found, int[] skipped, Walk walk) {
        Consumer<String> warnings = walk.warnings;
        List<Path> entries;
        try (Stream<Path> list = Files.list(dir)) {
            entries = list.sorted().toList();
        } catch (IOException e) {
            warnings.accept(dir + ": cannot list directory (" + e.getMessage() + "); skipped");
            return;
        }
        EventLogSource rollover = databricksRollover(dir, entries);
        if (rollover != null) {
            found.add(rollover);
        }
        for (Path entry : entries) {
            String name = fileName(entry);
            if (rollover != null && rollover.parts().contains(entry)) {
                continue;
            }
            if (Files.isDirectory(entry)) {
                if (name.startsWith(".")) {
                    continue;
                }
                if (FileNames.isRollingDir(name)) {
                    if (!walk.firstTime(entry)) {
                        continue;
                    }
                    EventLogSource rolling = rolling(entry, warnings);
                    if (rolling != null) {
                        found.add(rolling);
                    } else {
                        warnings.accept(entry + ": " + whyNoParts(entry) + "; skipped");
                    }
                } else if (depth < MAX_DEPTH) {
                    if (walk.seenDir(entry)) {
                        if (Files.isSymbolicLink(entry)) {
                            warnings.accept(entry + ": a link to a directory already searched; skipped");
                        }
                        continue;
                    }
                    walk(entry, depth + 1, found, skipped, walk);
                }
            } else if (Files.isRegularFile(entry)) {
                if (FileNames.isObviousNonLog(name)) {
                    skipped[0]++;
                    continue;
                }
                String why = notAnEventLog(entry);
                if (why == null) {
                    if (walk.firstTime(entry)) {
                        found.add(EventLogSource.ofFile(entry));
                    }
                } else {
                    skipped[0]++;
                    warnings.accept(entry + ": skipped, " + why);
                }
            }
        }
    }

    /**
     * A rolling log ({@code eventlog_v2_<appId>}): its {@code events_<n>_…} parts in numeric order, from the last
     * compacted part on (earlier parts are folded into it, as Spark's reader assumes), or null if it has none.
     */
    static EventLogSource rolling(Path dir, Consumer<String> warnings) {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            warnings.accept(dir + ": cannot list directory (" + e.getMessage() + ")");
            return null;
        }
        List<Path> parts = new ArrayList<>();
        Path status = null;
        for (Path f : files) {
            String name = fileName(f);
            if (name.startsWith(FileNames.APP_STATUS_PREFIX)) {
                status = f;
            } else if (FileNames.rollingIndex(name) >= 0 && !name.endsWith(".crc")) {
                parts.add(f);
            } else if (FileNames.isOverflowingRollingPart(name)) {
                warnings.accept(f + ": part number past " + Long.MAX_VALUE + ", which no Spark writes; skipped");
            }
        }
        if (parts.isEmpty()) {
            return null;
        }
        parts.sort(Comparator.comparingLong((Path f) -> FileNames.rollingIndex(fileName(f)))
                .thenComparing(LogDiscovery::fileName));
        int lastCompact = -1;
        for (int i = 0; i < parts.size(); i++) {
            if (FileNames.parse(fileName(parts.get(i))).compact()) {
                lastCompact = i;
            }
        }
        if (lastCompact > 0) {
            parts = new ArrayList<>(parts.subList(lastCompact, parts.size()));
        }
        boolean inProgress;
        if (status == null) {
            warnings.accept(dir + ": rolling event log without an appstatus_ file; completeness from its events");
            inProgress = false;
        } else {
            inProgress = fileName(status).endsWith(FileNames.IN_PROGRESS);
        }
        String codec = FileNames.parse(fileName(parts.get(0))).codec();
        return new EventLogSource(dir, parts, codec, inProgress);
    }

    /**
     * The Databricks rollover among {@code entries} (the files of {@code dir}), as one log: the dated files oldest
     * first, then the current {@code eventlog}. Null when there is no dated file (a lone {@code eventlog} is an
     * ordinary log file).
     */
    static EventLogSource databricksRollover(Path dir, List<Path> entries) {
        List<Path> parts = new ArrayList<>();
        boolean dated = false;
        for (Path entry : entries) {
            String key = FileNames.databricksRolloverKey(fileName(entry));
            if (key != null && Files.isRegularFile(entry)) {
                parts.add(entry);
                dated |= !key.equals("~");
            }
        }
        if (!dated) {
            return null;
        }
        parts.sort(Comparator.comparing((Path f) -> FileNames.databricksRolloverKey(fileName(f)))
                .thenComparing(LogDiscovery::fileName));
        return new EventLogSource(dir, parts, FileNames.parse(fileName(parts.get(0))).codec(), false);
    }

    private static List<Path> siblings(Path dir) {
        try (Stream<Path> list = Files.list(dir)) {
            return list.sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Why {@link #rolling} found nothing to read in a rolling-log directory, for a one-line message. */
    static String whyNoParts(Path dir) {
        List<String> names;
        try (Stream<Path> list = Files.list(dir)) {
            names = list.map(LogDiscovery::fileName).sorted().toList();
        } catch (IOException e) {
            return "rolling event log directory that cannot be listed (" + e.getMessage() + ")";
        }
        List<String> overflowing = names.stream().filter(FileNames::isOverflowingRollingPart).toList();
        String none = "rolling event log directory without events_ files";
        if (!overflowing.isEmpty()) {
            return none + " it can read: " + overflowing.get(0) + (overflowing.size() == 1 ? " has" : " and others have")
                    + " a part number past " + Long.MAX_VALUE + ", which no Spark writes";
        }
        return names.isEmpty() ? none + " (it is empty)" : none;
    }

    /** Null when the file looks like an event log, else why not (for a one-line warning). */
    static String notAnEventLog(Path file) {
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), SNIFF_WINDOW)) {
            raw.mark(Codec.SNIFF_BYTES);
            byte[] magic = raw.readNBytes(Codec.SNIFF_BYTES);
            raw.reset();
            if (magic.length == 0) {
                return null; // an empty log: a just-started application; the reader will say it is empty
            }
            Codec codec = Codec.sniff(magic, magic.length);
            if (codec == null) {
                return "not an event log (neither JSON lines nor Spark-compressed data)";
            }
            if (codec == Codec.LZF) {
                return null; // cannot look inside; the reader reports lzf as unsupported
            }
            byte[] head;
            try (InputStream in = codec.open(raw)) {
                head = in.readNBytes(SNIFF_WINDOW);
            } catch (IOException | RuntimeException e) {
                return "not readable as " + codec.description + " data (" + e.getMessage() + ")";
            }
            return looksLikeEvents(head) ? null : "not a Spark event log (first line has no \"Event\" field)";
        } catch (IOException e) {
            return "not readable (" + e.getMessage() + ")";
        }
    }

    /** The first line is a JSON object with an "Event" field (or too long to tell within the window). */
    static boolean looksLikeEvents(byte[] head) {
        int i = 0;
        while (i < head.length && Character.isWhitespace(head[i])) {
            i++;
        }
        if (i >= head.length || head[i] != '{') {
            return false;
        }
        int nl = i;
        while (nl < head.length && head[nl] != '\n') {
            nl++;
        }
        if (nl == head.length && head.length == SNIFF_WINDOW) {
            return true;
        }
        return new String(head, i, nl - i, StandardCharsets.UTF_8).contains("\"Event\"");
    }

    private static String fileName(Path p) {
        Path name = p.getFileName();
        return name == null ? p.toString() : name.toString();
    }
}
