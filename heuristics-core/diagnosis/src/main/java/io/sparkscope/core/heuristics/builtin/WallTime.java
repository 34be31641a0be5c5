package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one way findings turn task time a fix would save into wall time of the application ({@code Impact.wallMs}), so
 * that their promises agree and rank fairly. Per stage:
 * <ol>
 *   <li>the stage's effective parallelism: its task time over its wall span (how many tasks ran side by side on
 *       average), at least 1 and at most the application's task slots;</li>
 *   <li>the saved task time over that parallelism is the wall time it took;</li>
 *   <li>only the stretch of the stage during which no other stage ran counts: while stages run side by side, the
 *       application waits for all of them, so shortening one does not shorten the run. The saving is scaled by the
 *       share of the stage's span it ran alone and capped by that stretch.</li>
 * </ol>
 * A saving spread over the whole application ({@link #ofApp}) treats the application's busy time as one span, as
 * every stage running side by side gets shorter. A finding that knows the wall time itself (a job that only infers a schema)
 * uses that instead.
 *
 * <p>Stages are placed in time by submission and completion (else their first and last task); a stage with no span
 * saves no wall time.
 */
public final class WallTime {
    private WallTime() {
    }

    /** Wall time saved if {@code taskMs} of the stage's task time went (at most all of it). */
    public static long ofStage(AppSnapshot app, StageSummary s, long taskMs) {
        long stageTask = Facts.stageTaskMs(s);
        long span = Facts.stageDurationMs(s);
        if (stageTask <= 0 || span <= 0 || taskMs <= 0) {
            return 0;
        }
        Timeline t = timeline(app);
        long alone = Math.min(span, t.aloneMs().getOrDefault(s.key(), 0L));
        double saved = Math.min(taskMs, stageTask) / parallelism(stageTask, span, t.slots());
        return Math.min(alone, Math.round(saved * alone / span));
    }

    /** Wall time saved if {@code share} (0..1) of each stage's task time went. */
    public static long ofStages(AppSnapshot app, List<StageSummary> stages, double share) {
        long wall = 0;
        for (StageSummary s : stages) {
            wall += ofStage(app, s, Math.round(Facts.stageTaskMs(s) * share));
        }
        return wall;
    }

    /**
     * Wall time saved if {@code taskMs} of task time went from the application as a whole (GC across every stage,
     * say): the application's busy time (when any stage ran) is one span, its task time over that span the
     * parallelism. Stages side by side share the saving here, as every one of them gets shorter.
     */
    public static long ofApp(AppSnapshot app, long taskMs) {
        long total = 0;
        for (StageSummary s : app.stages()) {
            total += Facts.stageTaskMs(s);
        }
        Timeline t = timeline(app);
        if (total <= 0 || taskMs <= 0 || t.busyMs() <= 0) {
            return 0;
        }
        double saved = Math.min(taskMs, total) / parallelism(total, t.busyMs(), t.slots());
        return Math.min(t.busyMs(), Math.round(saved));
    }

    /** How long the stage ran with no other stage running (ms). */
    public static long aloneMs(AppSnapshot app, StageSummary s) {
        return timeline(app).aloneMs().getOrDefault(s.key(), 0L);
    }

    /** Tasks running side by side on average: task time over wall span, between 1 and the slots (when known). */
    static double parallelism(long stageTaskMs, long spanMs, int slots) {
        double p = (double) stageTaskMs / spanMs;
        if (slots > 0) {
            p = Math.min(p, slots);
        }
        return Math.max(1.0, p);
    }

    /** Each stage attempt's time alone, by {@link StageSummary#key()}, and the task slots. */
    private record Timeline(WeakReference<AppSnapshot> app, Map<String, Long> aloneMs, long busyMs, int slots) {
    }

    // Most findings of one diagnosis ask about the same snapshot in turn: its timeline is built once, held weakly.
    private static volatile Timeline last;

    private static Timeline timeline(AppSnapshot app) {
        Timeline t = last;
        if (t != null && t.app().get() == app) {
            return t;
        }
        Map<String, Long> alone = new HashMap<>();
        long busy = sweep(app.stages(), alone);
        t = new Timeline(new WeakReference<>(app), Collections.unmodifiableMap(alone), busy,
                Facts.slots(app, SparkSettings.of(app)));
        last = t;
        return t;
    }

    /**
     * A sweep over the stages' starts and ends: every stretch with exactly one stage running goes to that stage in
     * {@code alone}. Returns the busy time: how long at least one stage ran.
     */
    private static long sweep(List<StageSummary> stages, Map<String, Long> alone) {
        record Edge(long at, boolean start, String key) {
        }
        List<Edge> edges = new ArrayList<>();
        for (StageSummary s : stages) {
            long from;
            long to;
            if (s.durationMs() > 0) {
                from = s.submissionTime();
                to = s.completionTime();
            } else if (s.firstTaskLaunchedTime() > 0 && s.lastTaskFinishedTime() > s.firstTaskLaunchedTime()) {
                from = s.firstTaskLaunchedTime();
                to = s.lastTaskFinishedTime();
            } else {
                continue;
            }
            edges.add(new Edge(from, true, s.key()));
            edges.add(new Edge(to, false, s.key()));
        }
        // ends before starts at the same instant: a stage that starts as another ends does not overlap it
        edges.sort((a, b) -> a.at() != b.at() ? Long.compare(a.at(), b.at()) : Boolean.compare(a.start(), b.start()));
        long busy = 0;
        Map<String, Integer> open = new HashMap<>();
        Set<String> running = new HashSet<>();
        long prev = 0;
        for (Edge e : edges) {
            if (!running.isEmpty() && e.at() > prev) {
                busy += e.at() - prev;
                if (running.size() == 1) {
                    alone.merge(running.iterator().next(), e.at() - prev, Long::sum);
                }
            }
            prev = e.at();
            // a key seen twice (a duplicate stage record) stays running until both have ended
            if (e.start()) {
                open.merge(e.key(), 1, Integer::sum);
                running.add(e.key());
            } else if (open.merge(e.key(), -1, Integer::sum) <= 0) {
                open.remove(e.key());
                running.remove(e.key());
            }
        }
        return busy;
    }
}
