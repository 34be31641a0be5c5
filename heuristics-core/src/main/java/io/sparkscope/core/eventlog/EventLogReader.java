package io.sparkscope.core.eventlog;

import io.sparkscope.core.event.SparkEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads Spark event logs (JSON lines, Spark 1.2 to 4.x) into our {@link SparkEvent}s.
 *
 * <p>Formats: plain files; {@code .lz4}, {@code .snappy}, {@code .zstd} as Spark writes them with
 * {@code spark.eventLog.compress=true} (the bytes are checked, so a wrong suffix is reported rather than
 * misread); {@code .inprogress} files; Spark 3 rolling logs ({@code eventlog_v2_<appId>/events_<n>_<appId>}).
 *
 * <p>Bad content never throws: each problem becomes one line "file:line: what was wrong" and reading goes on.
 * Lines are capped at {@link #DEFAULT_MAX_LINE_BYTES} (system property {@value #MAX_LINE_PROPERTY}); a longer
 * line is skipped without being held in memory.
 */
public final class EventLogReader {
    /** System property overriding the line-length cap, in bytes. */
    public static final String MAX_LINE_PROPERTY = "sparkscope.eventlog.maxLineBytes";
    public static final int DEFAULT_MAX_LINE_BYTES = 64 << 20;
    /** Problems kept per log; further ones are only counted, so a garbage file cannot flood the output. */
    public static final int MAX_KEPT_PROBLEMS = 100;

    private static final Logger LOG = LoggerFactory.getLogger(EventLogReader.class);

    private EventLogReader() {
    }

    /**
     * The logs at {@code path}: a file, a rolling-log directory, or a directory holding logs (searched a few levels
     * deep; each file or rolling directory is one log), sorted by path. Files that do not look like event logs are
     * skipped with a logged warning.
     *
     * @throws EventLogException the path is missing or unreadable, or holds no logs (one-line message)
     */
    public static List<EventLogSource> discover(Path path) throws EventLogException {
        return discover(path, LOG::warn);
    }

    /** As {@link #discover(Path)}, with skipped-file warnings (one line each) going to {@code warnings}. */
    public static List<EventLogSource> discover(Path path, Consumer<String> warnings) throws EventLogException {
        return LogDiscovery.discover(path, warnings);
    }

    /**
     * Streams every decodable event of one log, in order, into {@code sink}; events of types Sparkscope does not
     * use arrive as {@link SparkEvent.Unknown}. Never throws for bad content: each problem goes to
     * {@code problems} as one line "file:line: what was wrong". Exceptions thrown by {@code sink} propagate.
     */
    public static ReadStats read(EventLogSource source, Consumer<SparkEvent> sink, Consumer<String> problems) {
        return read(source, sink, problems, maxLineBytes());
    }

    /** As {@link #read(EventLogSource, Consumer, Consumer)} with an explicit line-length cap. */
    public static ReadStats read(EventLogSource source, Consumer<SparkEvent> sink, Consumer<String> problems,
                                 int maxLineBytes) {
        return new LogRead(sink, problems, maxLineBytes).run(source);
    }

    static int maxLineBytes() {
        String value = System.getProperty(MAX_LINE_PROPERTY);
        if (value != null) {
            try {
                long parsed = Long.parseLong(value.trim());
                if (parsed > 0) {
                    return (int) Math.min(parsed, Integer.MAX_VALUE - 16);
                }
            } catch (NumberFormatException e) {
                LOG.warn("{}={} is not a byte count; using {}", MAX_LINE_PROPERTY, value, DEFAULT_MAX_LINE_BYTES);
            }
        }
        return DEFAULT_MAX_LINE_BYTES;
    }
}
