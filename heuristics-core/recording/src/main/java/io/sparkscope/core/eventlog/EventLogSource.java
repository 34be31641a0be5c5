package io.sparkscope.core.eventlog;

import java.nio.file.Path;
import java.util.List;

/**
 * One application's event log as found on disk.
 *
 * @param path       the file, or the rolling-log directory ({@code eventlog_v2_<appId>}), or the directory of a
 *                   Databricks rollover
 * @param parts      the files to read in order: the file itself, or the rolling log's {@code events_<n>_…} files
 *                   in numeric order (starting at the last compacted file, as Spark's history server does), or a
 *                   Databricks rollover's {@code eventlog-YYYY-MM-DD--HH-MM.gz} files oldest first and then the
 *                   current {@code eventlog}
 * @param codec      Spark's codec short name from the file name ({@code lz4, lzf, snappy, zstd}), or null for
 *                   plain JSON lines; the reader still checks the bytes, since a suffix can lie
 * @param inProgress the application was still writing it ({@code .inprogress} file, or a rolling log whose
 *                   {@code appstatus_} file is {@code .inprogress}); completeness should still be judged by
 *                   ApplicationEnd, because a crashed driver leaves {@code .inprogress} behind forever
 */
public record EventLogSource(Path path, List<Path> parts, String codec, boolean inProgress) {
    public EventLogSource {
        parts = List.copyOf(parts);
    }

    /** A single-file log. */
    public static EventLogSource ofFile(Path file) {
        FileNames.Parsed parsed = FileNames.parse(file.getFileName().toString());
        return new EventLogSource(file, List.of(file), parsed.codec(), parsed.inProgress());
    }

    public boolean rolling() {
        return parts.size() != 1 || !parts.get(0).equals(path);
    }
}
