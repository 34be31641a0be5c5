package io.sparkscope.core.eventlog;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What reading one log did.
 *
 * @param lines          lines seen (all parts), blank and skipped ones included
 * @param events         events decoded and handed to the sink, {@link io.sparkscope.core.event.SparkEvent.Unknown}
 *                       ones excluded
 * @param malformedLines lines skipped: invalid JSON, over-long lines, events missing a field Spark requires
 * @param skippedUnknown events of types Sparkscope does not use (handed on as {@code Unknown}, counted here)
 * @param unknownTypes   those types with their counts, sorted by name
 * @param bytesRead      uncompressed bytes read
 * @param truncated      the log ends early: a decompression stream broke off, or the last line is cut
 * @param invalidValues  warnings about values: outside Spark's ranges (each treated as unknown), strings cut to
 *                       the length limit, invalid UTF-8 replaced
 * @param sinkFailures   events the consumer threw on and that were skipped (only when reading with
 *                       {@link EventLogReader#readContained})
 * @param problems       the one-line problem messages also given to the problems consumer (the first
 *                       {@value EventLogReader#MAX_KEPT_PROBLEMS}; more are counted in a final message)
 */
public record ReadStats(long lines, long events, long malformedLines, long skippedUnknown,
                        Map<String, Long> unknownTypes, long bytesRead, boolean truncated, long invalidValues,
                        long sinkFailures, List<String> problems) {
    public ReadStats {
        unknownTypes = Collections.unmodifiableMap(new TreeMap<>(unknownTypes));
        problems = List.copyOf(problems);
    }
}
