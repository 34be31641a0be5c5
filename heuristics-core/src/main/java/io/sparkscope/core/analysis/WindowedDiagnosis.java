package io.sparkscope.core.analysis;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.recorder.Recorder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Findings of a long-running application whose recorder keeps only a window of recent stages and SQL executions.
 *
 * <p>Application-wide findings come from the retained snapshot, whose run totals cover the whole run. Findings about
 * one stage or one SQL execution (skew, spill, failed tasks, a join strategy) need that entity's own numbers, which
 * leave the driver with it. They are computed on the entity's last look as it leaves the window (the heuristics run
 * on a snapshot holding it alone, with the application's configuration and executors) and kept, at most
 * {@code maxKept}, HIGH ones first. Recomputing them later from the database instead would mean reading back the
 * whole run in the driver at the end, which is what the window exists to avoid; the price is that such a finding is
 * judged with the application as it stood when the entity left (a threshold relative to the application's duration
 * sees a shorter application).
 *
 * <p>Built-in application-wide heuristics read whole-run figures from the run totals (task-metric sums, job counts,
 * the task spans of stages that left); one that sums over the listed stages by itself sees the window: today
 * {@code SerializerConfig}, which weighs the RDD data of the listed stages only.
 *
 * <p>A finding of a last look is kept when it is about the leaving entity: it has a location (its id is not the bare
 * heuristic), it names the leaving stage (for a stage), and the same heuristics on the same context without the
 * entity do not produce it (configuration findings, for instance, appear either way and come from the retained
 * snapshot). Not thread-safe: the recorder's thread calls both methods.
 */
public final class WindowedDiagnosis implements Recorder.EvictionListener {
    public static final int DEFAULT_MAX_KEPT = 1000;

    private final Function<AppSnapshot, List<Finding>> heuristics;
    private final int maxKept;
    /** Kept findings, in the order the entities left. */
    private final List<Finding> kept = new ArrayList<>();
    private final Set<String> keptIds = new HashSet<>();
    private long notKept;

    public WindowedDiagnosis(Function<AppSnapshot, List<Finding>> heuristics) {
        this(heuristics, DEFAULT_MAX_KEPT);
    }

    public WindowedDiagnosis(Function<AppSnapshot, List<Finding>> heuristics, int maxKept) {
        this.heuristics = heuristics;
        this.maxKept = maxKept;
    }

    @Override
    public void leaving(AppSnapshot lastLook) {
        List<Finding> found = heuristics.apply(lastLook);
        List<Finding> candidates = new ArrayList<>();
        String stageKey = lastLook.stages().isEmpty() ? null : lastLook.stages().get(0).key();
        for (Finding f : found) {
            if (!f.id().equals(f.heuristic()) && (stageKey == null || f.stageIds().contains(stageKey))) {
                candidates.add(f);
            }
        }
        if (candidates.isEmpty()) {
            return;
        }
        Set<String> withoutIt = new HashSet<>();
        for (Finding f : heuristics.apply(withoutEntities(lastLook))) {
            withoutIt.add(f.id());
        }
        for (Finding f : candidates) {
            if (!withoutIt.contains(f.id())) {
                keep(f);
            }
        }
    }

    private void keep(Finding f) {
        if (keptIds.contains(f.id())) {
            return;
        }
        if (kept.size() >= maxKept) {
            // Full: a HIGH finding takes the place of the oldest LOW one; anything else is only counted.
            Finding low = null;
            if (f.severity() == Severity.HIGH) {
                for (Iterator<Finding> it = kept.iterator(); it.hasNext(); ) {
                    Finding k = it.next();
                    if (k.severity() != Severity.HIGH) {
                        low = k;
                        it.remove();
                        break;
                    }
                }
            }
            if (low == null) {
                notKept++;
                return;
            }
            keptIds.remove(low.id());
            notKept++;
        }
        kept.add(f);
        keptIds.add(f.id());
    }

    /** The application's findings: the retained snapshot's, plus those kept of entities that left, HIGH first. */
    public List<Finding> diagnose(AppSnapshot retained) {
        List<Finding> all = new ArrayList<>(heuristics.apply(retained));
        Set<String> ids = new HashSet<>();
        all.forEach(f -> ids.add(f.id()));
        for (Finding f : kept) {
            if (!ids.contains(f.id())) {
                all.add(f);
            }
        }
        all.sort(Comparator.comparing(Finding::severity, Comparator.reverseOrder()));
        return List.copyOf(all);
    }

    /** Findings kept of entities that left the window. */
    public List<Finding> kept() {
        return List.copyOf(kept);
    }

    /** Findings of entities that left the window that could not be kept (past {@code maxKept}). */
    public long notKept() {
        return notKept;
    }

    private static AppSnapshot withoutEntities(AppSnapshot s) {
        return new AppSnapshot(s.appId(), s.attemptId(), s.appName(), s.sparkUser(), s.sparkVersion(), s.startTime(),
                s.endTime(), s.lastEventTime(), s.complete(), s.config(), s.executors(), List.of(),
                List.<StageSummary>of(), List.of(), s.driverGcTimeMs(), s.driverMaxMemory(), s.eventCount(),
                s.unknownEventTypes());
    }
}
