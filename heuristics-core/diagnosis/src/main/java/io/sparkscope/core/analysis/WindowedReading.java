package io.sparkscope.core.analysis;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A recorder fed from an event log, offline, kept within its windows as the live listener's is: after each event the
 * windows are looked at (a few comparisons); when one holds half a limit more than its limit, what changed goes to the
 * {@link Checkpoint} (an import or a watcher writes it to the database, as the listener's flushes do) and the oldest
 * completed entities leave. Without a checkpoint (a report only) they leave at once: their numbers stay in the run's
 * totals, and the findings about them are kept ({@link WindowedDiagnosis}). A log with fewer completed entities than
 * the windows hold (nearly every application) gives exactly the snapshot an unwindowed read gives.
 *
 * <p>Not thread-safe: one thread reads the log and takes snapshots.
 */
public final class WindowedReading implements Consumer<SparkEvent> {
    /**
     * Where the periodic writes go: the snapshot of what changed since the last write that was stored
     * ({@link Recorder#snapshots}); true when it was stored, so that its entities may leave the windows.
     */
    @FunctionalInterface
    public interface Checkpoint {
        boolean write(AppSnapshot changed);
    }

    /** Events read after a refused write before the next one is tried. */
    static final int RETRY_AFTER_EVENTS = 10_000;

    private final Recorder recorder;
    private final WindowedDiagnosis diagnosis;
    private final Checkpoint checkpoint;
    private long events;
    /** After a refused write, the event count before which no write is tried again. */
    private long retryAt;

    /**
     * @param heuristics run on each batch of stages and SQL executions leaving the windows, so that their findings
     *                   outlive them ({@link #findings}); null when nobody reads findings
     * @param checkpoint where what changed is written before entities leave; null when nothing is stored
     */
    public WindowedReading(RecorderOptions options, Function<AppSnapshot, List<Finding>> heuristics,
                           Checkpoint checkpoint) {
        this.recorder = new Recorder(options);
        this.checkpoint = checkpoint;
        if (options.windowed() && heuristics != null) {
            diagnosis = new WindowedDiagnosis(heuristics);
            recorder.setEvictionListener(diagnosis);
        } else {
            diagnosis = null;
        }
        if (checkpoint == null) {
            recorder.written(Long.MAX_VALUE); // nothing to write: whatever is past a window may leave at once
        }
    }

    @Override
    public void accept(SparkEvent e) {
        recorder.onEvent(e);
        events++;
        if (recorder.overWindow()) {
            if (checkpoint != null && events >= retryAt) {
                AppSnapshot changed = recorder.snapshots(false).changed();
                if (changed.appId() != null && checkpoint.write(changed)) {
                    recorder.written(changed.eventCount());
                } else {
                    // The store holds a newer snapshot (a log imported again) or is away: trying after every event
                    // would cost a snapshot and a round trip each. Meanwhile the windows still bound memory: past
                    // twice a limit, the oldest leave unwritten (Recorder#leftUnwritten counts them).
                    retryAt = events + RETRY_AFTER_EVENTS;
                }
            }
            recorder.release();
        }
    }

    public Recorder recorder() {
        return recorder;
    }

    /** The snapshot {@code snapshot} (taken of this reading) was stored: what it held may leave the windows. */
    public void written(AppSnapshot snapshot) {
        recorder.written(snapshot.eventCount());
    }

    /**
     * The application's findings: {@code heuristics} on the snapshot, plus those kept of entities that left the
     * windows (none when nothing left, so an ordinary log's findings are the heuristics' alone).
     */
    public List<Finding> findings(AppSnapshot snapshot, Function<AppSnapshot, List<Finding>> heuristics) {
        if (diagnosis == null || diagnosis.kept().isEmpty()) {
            return heuristics.apply(snapshot);
        }
        return diagnosis.diagnose(snapshot);
    }
}
