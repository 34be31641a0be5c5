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
 * on a snapshot holding it and the others of its kind leaving in the same eviction round, with the application's
 * configuration and executors; see {@link Recorder.EvictionListener}) and kept, at most
 * {@code maxKept}, HIGH ones first. Recomputing them later from the database instead would mean reading back the
 * whole run in the driver at the end, which is what the window exists to avoid; the price is that such a finding is
 * judged with the application as it stood when the entity left (a threshold relative to the application's duration
 * sees a shorter application).
 *
 * <p>Built-in application-wide heuristics read whole-run figures from the run totals (task-metric sums, job counts,
 * the task spans of stages that left); one that sums over the listed stages by itself sees the window: today
 * {@code SerializerConfig}, which weighs the RDD data of the listed stages only.
 *
 * <p>A finding of a last look is kept when it is about a leaving entity: it has a location (its id is not the bare
 * heuristic), it names one of the leaving stages (for stages), and the same heuristics on the same context without
 * the entities do not produce it (configuration findings, for instance, appear either way and come from the retained
 * snapshot).
 *
 * <p>Entities leave together, not one by one, because a diagnosis has a fixed cost (every heuristic, the configuration
 * read, the run without the entities) that a look per entity paid for each. The built-in per-stage and per-query
 * findings judge each stage or execution on its own numbers, so a stage's finding reads the same whether it left
 * alone or with others. What can differ is what ties findings together: a stage's finding may be linked to the
 * failure of another stage that left with it ({@code causedBy}), advice on one key is reconciled across the
 * findings of one look, and a located finding about the application that names the stage it was worst in (one per
 * id is kept) names the worst of the look's stages rather than the first to leave.
 *
 * <p>Not thread-safe: the recorder's thread calls both methods.
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
        Set<String> stageKeys = new HashSet<>();
        for (StageSummary s : lastLook.stages()) {
            stageKeys.add(s.key());
        }
        for (Finding f : found) {
            if (!f.id().equals(f.heuristic()) && (stageKeys.isEmpty() || namesAny(f, stageKeys))) {
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

    private static boolean namesAny(Finding f, Set<String> stageKeys) {
        for (String id : f.stageIds()) {
            if (stageKeys.contains(id)) {
                return true;
            }
        }
        return false;
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
        // A full snapshot of no entities: its totals are those of the empty lists.
        return s.toBuilder().jobs(List.of()).stages(List.of()).sqlExecutions(List.of()).streamingQueries(List.of())
                .totals(null).partial(false).build();
    }
}
