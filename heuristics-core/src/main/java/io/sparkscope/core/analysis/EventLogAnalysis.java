package io.sparkscope.core.analysis;

import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.eventlog.ReadStats;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;

import java.util.function.Consumer;

/**
 * One event log through the recorder: the offline way in, which gives the same snapshot the live listener records
 * for the same run (docs/architecture.md, "Data flow").
 */
public final class EventLogAnalysis {
    private EventLogAnalysis() {
    }

    /** What one log gave: its snapshot and what the reader met on the way. */
    public record Result(EventLogSource source, AppSnapshot snapshot, ReadStats stats) {
        /** A log that held no application at all (empty, garbage): nothing to report or store. */
        public boolean hasApplication() {
            return !snapshot.appIdIsPlaceholder() || snapshot.eventCount() > 0 && snapshot.startTime() > 0;
        }
    }

    /**
     * Never throws for any log content: an event the recorder fails on is skipped with a "file:line" problem, and
     * a snapshot that cannot be built is one "file: reason" problem and an empty result, so the caller goes on
     * with its next log.
     */
    public static Result analyze(EventLogSource source, RecorderOptions options, Consumer<String> problems) {
        Recorder recorder = new Recorder(options);
        ReadStats stats = EventLogReader.readContained(source, recorder::onEvent, problems);
        AppSnapshot snapshot;
        try {
            snapshot = recorder.snapshot();
        } catch (RuntimeException | StackOverflowError e) {
            problems.accept(source.path() + ": cannot build the application's summary (" + e.getClass().getSimpleName()
                    + ": " + io.sparkscope.core.event.TaskEndReason.firstLine(String.valueOf(e.getMessage())) + "); skipped");
            snapshot = new Recorder(options).snapshot();
        }
        return new Result(source, snapshot, stats);
    }
}
