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
 *
 * <p>Values are checked with Spark's own ranges before they reach the consumer: ids, indices and attempt numbers
 * non-negative and within their type (nothing wraps), times epoch milliseconds before the year 2200 and an end
 * never before its start, core counts 1 to 65 536, sizes and metrics non-negative, no NaN or Infinity. An invalid
 * value gives one warning "file:line: &lt;event&gt; field "&lt;name&gt;": &lt;what&gt;; treated as unknown" and becomes the
 * record's unknown value (-1 for a time, a task's finish 0, a metric 0 as Spark gives a missing one); where a
 * record has no unknown (a task's index, a stage id) the event is skipped with that warning. A log without an
 * application id gets one from its file name, the way Spark names logs. Memory and time are bounded besides the
 * line cap: a string longer than 1 MiB ({@value ReaderLimits#MAX_STRING_PROPERTY}) is cut with a warning; a
 * compressed file (any codec) may give at most 100 times the compressed bytes it has read once past its first
 * 64 MiB ({@value ReaderLimits#MAX_EXPANSION_PROPERTY}) and 32 GiB in all
 * ({@value ReaderLimits#MAX_DECOMPRESSED_PROPERTY}), then reading of that file stops with a warning and what was
 * read before is kept; an event decoded whole holds at most {@value EventDecoder#MAX_TREE_TOKENS} JSON values.
 */
public final class EventLogReader {
    /** System property overriding the line-length cap, in bytes. */
    public static final String MAX_LINE_PROPERTY = "sparkscope.eventlog.maxLineBytes";
    public static final int DEFAULT_MAX_LINE_BYTES = 64 << 20;
    /**
     * System property: how many threads parse a log's lines while the reading thread settles them in order and
     * hands them on; default the available processors, 1 parses on the reading thread alone.
     */
    public static final String DECODE_THREADS_PROPERTY = "sparkscope.eventlog.decodeThreads";
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
    /**
     * The Databricks rollover files of {@code dir} ({@code eventlog-YYYY-MM-DD--HH-MM.gz} and the current
     * {@code eventlog}) as one log, oldest first; null when the directory holds no dated rollover file or cannot
     * be listed. For readers that list a directory themselves (the archive import) and must group them as
     * {@link #discover} does.
     */
    public static EventLogSource databricksRollover(Path dir) {
        try (java.util.stream.Stream<Path> list = java.nio.file.Files.list(dir)) {
            return LogDiscovery.databricksRollover(dir, list.sorted().toList());
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

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
        return new LogRead(sink, problems, maxLineBytes, ReaderLimits.fromSystemProperties(), false,
                decodeThreads()).run(source);
    }

    /**
     * As {@link #read(EventLogSource, Consumer, Consumer)}, but nothing escapes, whatever the log holds: an
     * exception {@code sink} throws for one event is reported as "file:line: &lt;event&gt; could not be applied
     * (…); that event is skipped" and reading goes on, so one event the consumer cannot handle costs that event,
     * not the application. And the log is taken as one application: if it has Spark events but no
     * SparkListenerApplicationStart (its first part lost, its first line damaged), one is made from the log's
     * name as Spark names logs (start time unknown) and delivered last, with a warning, so the application keeps
     * an id rather than being dropped.
     */
    public static ReadStats readContained(EventLogSource source, Consumer<SparkEvent> sink,
                                          Consumer<String> problems) {
        return readContained(source, sink, problems, decodeThreads());
    }

    /**
     * As {@link #readContained(EventLogSource, Consumer, Consumer)} with {@code threads} parsing lines (1: the
     * calling thread alone). Whatever the count, {@code sink} gets the same events in the same order on the calling
     * thread, and {@code problems} the same lines; the threads end before this returns.
     */
    public static ReadStats readContained(EventLogSource source, Consumer<SparkEvent> sink,
                                          Consumer<String> problems, int threads) {
        return new LogRead(sink, problems, maxLineBytes(), ReaderLimits.fromSystemProperties(), true, threads)
                .run(source);
    }

    /**
     * Below this heap the default is one thread: lines out on other threads, and the events they became waiting
     * for their turn, cost some MiB that a JVM started with a small {@code -Xmx} needs for the recorder.
     */
    static final long SMALL_HEAP_BYTES = 128L << 20;

    /**
     * The decoding threads from {@value #DECODE_THREADS_PROPERTY}, else the available processors (one under a heap
     * smaller than {@link #SMALL_HEAP_BYTES}).
     */
    public static int decodeThreads() {
        int processors = Runtime.getRuntime().maxMemory() < SMALL_HEAP_BYTES ? 1
                : Runtime.getRuntime().availableProcessors();
        String value = System.getProperty(DECODE_THREADS_PROPERTY);
        if (value == null) {
            return processors;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= 1 && parsed <= 256) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        LOG.warn("{}={} is not a thread count from 1 to 256; using {}", DECODE_THREADS_PROPERTY, value, processors);
        return processors;
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
