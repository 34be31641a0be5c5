package io.sparkscope.core.analysis;

import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.eventlog.ReadStats;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One event log through the recorder: the offline way in, which gives the same snapshot the live listener records
 * for the same run (docs/architecture.md, "Data flow").
 *
 * <p>Memory: with windowed {@link RecorderOptions} ({@link RecorderOptions#withDefaultWindows()}, what the commands
 * use) the recorder keeps what the live listener keeps, so a log of any length is read within the same bound
 * ({@link WindowedReading}).
 */
public final class EventLogAnalysis {
    /**
     * What one log gave: its snapshot, what the reader met on the way, and, when the read was windowed and diagnosed,
     * the findings about entities that left the windows.
     *
     * @param unreadable null, or why the log could not be read in full (the heap ran out): one line, and the snapshot
     *                   is then empty
     */
    public record Result(EventLogSource source, AppSnapshot snapshot, ReadStats stats, WindowedReading reading,
                         String unreadable) {
        public Result(EventLogSource source, AppSnapshot snapshot, ReadStats stats) {
            this(source, snapshot, stats, null, null);
        }

        /** A log that held no application at all (empty, garbage): nothing to report or store. */
        public boolean hasApplication() {
            return !snapshot.appIdIsPlaceholder() || snapshot.eventCount() > 0 && snapshot.startTime() > 0;
        }

        /**
         * The application's findings: {@code heuristics} on the snapshot, plus those kept of entities that left the
         * windows (none when nothing left, so an ordinary log's findings are the heuristics' alone).
         */
        public List<Finding> findings(Function<AppSnapshot, List<Finding>> heuristics) {
            return reading == null ? heuristics.apply(snapshot) : reading.findings(snapshot, heuristics);
        }
    }

    /**
     * Never throws for any log content: an event the recorder fails on is skipped with a "file:line" problem, and
     * a snapshot that cannot be built is one "file: reason" problem and an empty result, so the caller goes on
     * with its next log.
     */
    public static Result analyze(EventLogSource source, RecorderOptions options, Consumer<String> problems) {
        return analyze(source, options, null, null, problems);
    }

    /**
     * As {@link #analyze(EventLogSource, RecorderOptions, Consumer)}, windowed when {@code options} are.
     *
     * @param heuristics run on each batch of stages and SQL executions leaving the windows, so that their findings
     *                   outlive them ({@link Result#findings}); null when nobody reads findings
     * @param checkpoint where what changed is written before entities leave the windows; null when nothing is
     *                   stored (they leave at once)
     */
    public static Result analyze(EventLogSource source, RecorderOptions options,
                                 Function<AppSnapshot, List<Finding>> heuristics,
                                 WindowedReading.Checkpoint checkpoint,
                                 Consumer<String> problems) {
        WindowedReading reading = new WindowedReading(options, heuristics, checkpoint);
        Recorder recorder = reading.recorder();
        Consumer<SparkEvent> sink = options.windowed() ? reading : recorder::onEvent;
        ReadStats stats;
        try {
            stats = EventLogReader.readContained(source, sink, problems);
        } catch (OutOfMemoryError e) {
            return outOfMemory(source, options);
        }
        AppSnapshot snapshot;
        try {
            snapshot = recorder.snapshot();
        } catch (RuntimeException | StackOverflowError e) {
            problems.accept(source.path() + ": cannot build the application's summary (" + e.getClass().getSimpleName()
                    + ": " + io.sparkscope.core.event.TaskEndReason.firstLine(String.valueOf(e.getMessage())) + "); skipped");
            snapshot = new Recorder(options).snapshot();
        } catch (OutOfMemoryError e) {
            return outOfMemory(source, options);
        }
        return new Result(source, snapshot, stats, reading, null);
    }

    /**
     * The heap ran out: the recorder is dropped (its memory with it) and the log is reported in one line. With the
     * default windows this takes a heap below the stated bound or a single stage or plan larger than memory.
     */
    private static Result outOfMemory(EventLogSource source, RecorderOptions options) {
        long maxMb = Runtime.getRuntime().maxMemory() >> 20;
        String why = "not read in full: the Java heap (" + maxMb + " MB) ran out"
                + (options.windowed() ? "" : " (the recorder kept every job, stage and executor)")
                + "; give the JVM more heap (java -Xmx…)";
        AppSnapshot empty = new Recorder(RecorderOptions.DEFAULTS).snapshot();
        ReadStats none = new ReadStats(0, 0, 0, 0, Map.of(), 0, true, 0, 0, List.of(why));
        return new Result(source, empty, none, null, source.path() + ": " + why);
    }
}
