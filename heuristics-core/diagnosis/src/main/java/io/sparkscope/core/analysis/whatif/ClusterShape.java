package io.sparkscope.core.analysis.whatif;

import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskRecord;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The slots a run actually had: {@code executors × coresPerExecutor}.
 *
 * <p>Executors are the most that were alive at once (a run under dynamic allocation had fewer for part of the time,
 * which the model cannot replay: it is flagged). Cores per executor are the largest any executor offered. In local
 * mode the driver runs the tasks: each of its cores counts as a one-core executor, so the curve scales cores.
 *
 * @param executors        executors at the peak (local mode: the driver's cores)
 * @param coresPerExecutor cores each (local mode: 1)
 * @param local            true when the driver ran the tasks
 * @param caveats          {@link WhatIfCaveat#CORES_INFERRED} and/or {@link WhatIfCaveat#EXECUTORS_VARIED}
 */
record ClusterShape(int executors, int coresPerExecutor, boolean local, Set<WhatIfCaveat> caveats) {
    ClusterShape {
        caveats = caveats.isEmpty() ? Set.of() : Set.copyOf(caveats);
    }

    /** In long arithmetic: a damaged log can claim 2³⁰ cores per executor. */
    long slots() {
        return (long) executors * coresPerExecutor;
    }

    /**
     * @param appStart start of the window that counts: the first task launch (executors alive only before it or
     *                 after {@code appEnd} offered no slot to any task)
     * @param appEnd   end of that window: the last task end
     */
    static ClusterShape of(AppSnapshot app, long appStart, long appEnd) {
        Set<WhatIfCaveat> caveats = EnumSet.noneOf(WhatIfCaveat.class);
        List<ExecutorSummary> workers = new ArrayList<>();
        ExecutorSummary driver = null;
        for (ExecutorSummary e : app.executors()) {
            if (e.isDriver()) {
                driver = e;
            } else {
                workers.add(e);
            }
        }
        if (workers.isEmpty()) {
            int cores = driver != null ? driver.totalCores() : 0;
            if (cores <= 0) {
                cores = SparkSettings.of(app).localCores().orElse(0);
            }
            if (cores <= 0) {
                cores = maxConcurrentKeptTasks(app);
                caveats.add(WhatIfCaveat.CORES_INFERRED);
            }
            return new ClusterShape(cores, 1, true, caveats);
        }
        int cores = 0;
        for (ExecutorSummary e : workers) {
            cores = Math.max(cores, e.totalCores());
        }
        int peak = peakAlive(workers, appStart, appEnd, caveats);
        if (cores <= 0) {
            // Tasks per executor at the busiest moment, from the tasks the snapshot kept: a lower bound.
            cores = Math.max(1, (int) Math.ceil((double) maxConcurrentKeptTasks(app) / peak));
            caveats.add(WhatIfCaveat.CORES_INFERRED);
        }
        return new ClusterShape(peak, cores, false, caveats);
    }

    /** The most executors alive at one time; flags a run whose executor-time falls short of 90 % of peak × uptime. */
    private static int peakAlive(List<ExecutorSummary> workers, long appStart, long appEnd, Set<WhatIfCaveat> caveats) {
        List<long[]> edges = new ArrayList<>();
        double aliveMs = 0;
        long firstAdd = appEnd;
        for (ExecutorSummary e : workers) {
            long from = e.addTime() > 0 ? Math.max(e.addTime(), appStart) : appStart;
            long to = e.removeTime() > 0 ? Math.min(e.removeTime(), appEnd) : appEnd;
            if (to <= from) {
                continue; // never alive while tasks ran, e.g. one arriving as the last stage ends
            }
            edges.add(new long[]{from, +1});
            edges.add(new long[]{to, -1});
            aliveMs += Math.max(0, to - from);
            firstAdd = Math.min(firstAdd, from);
        }
        // Removals first at equal times: an executor replacing another at the same instant is not a second one.
        edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int alive = 0;
        int peak = 0;
        for (long[] e : edges) {
            alive += (int) e[1];
            peak = Math.max(peak, alive);
        }
        peak = Math.max(1, peak);
        // Measured from the first executor's arrival: start-up before it is not what dynamic allocation means.
        long uptime = appEnd - firstAdd;
        if (uptime > 0 && aliveMs < 0.9 * peak * uptime) {
            caveats.add(WhatIfCaveat.EXECUTORS_VARIED);
        }
        return peak;
    }

    private static int maxConcurrentKeptTasks(AppSnapshot app) {
        List<long[]> edges = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            for (TaskRecord t : s.keptTasks()) {
                if (t.timesKnown() && t.finishTime() > t.launchTime()) {
                    edges.add(new long[]{t.launchTime(), +1});
                    edges.add(new long[]{t.finishTime(), -1});
                }
            }
        }
        edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int running = 0;
        int peak = 1;
        for (long[] e : edges) {
            running += (int) e[1];
            peak = Math.max(peak, running);
        }
        return peak;
    }
}
