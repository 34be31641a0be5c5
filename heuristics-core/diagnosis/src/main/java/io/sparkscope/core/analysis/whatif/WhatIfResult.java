package io.sparkscope.core.analysis.whatif;

import java.util.List;

/**
 * The executor what-if of one application: how long it would have taken with other executor counts.
 *
 * @param appId               the application
 * @param order               task order the simulation used
 * @param local               true in local mode (the curve then scales the driver's cores)
 * @param coresPerExecutor    cores per simulated executor (1 in local mode): the run's own unless asked otherwise
 * @param actualExecutors     the run's executor count (peak alive; local mode: driver cores)
 * @param actualSlots         the run's own slots: {@code actualExecutors ×} its cores per executor
 * @param actualDurationMs    the run's wall time
 * @param driverTimeMs        wall time with no stage running tasks: kept unchanged at every executor count
 * @param taskTimeMs          Σ task durations the simulation replays (kept tasks exact, the rest rebuilt)
 * @param recordedTaskTimeMs  Σ task durations as the executors reported them, a check on {@code taskTimeMs}
 * @param criticalPathMs      driver time + the jobs' longest stage chains, each stage as long as its slowest task:
 *                            no executor count does better
 * @param idealMs             driver time + task time / actual slots: perfect packing on the actual slots
 * @param estimatedActualMs   the simulation at the actual executor count
 * @param errorMs             {@code estimatedActualMs − actualDurationMs}
 * @param relativeError       {@code errorMs / actualDurationMs} (0 when the duration is 0)
 * @param curve               estimates by executor count, ascending, the actual count included
 * @param stagesSimulated     stage attempts replayed (skipped and task-less ones excluded)
 * @param phases              groups of jobs simulated one after another (concurrent jobs share a group)
 * @param reconstructedTasks  tasks whose durations were rebuilt from quantiles
 * @param caveats             reasons to trust the numbers less, in declaration order
 */
public record WhatIfResult(
        String appId,
        TaskOrder order,
        boolean local,
        int coresPerExecutor,
        int actualExecutors,
        long actualSlots,
        long actualDurationMs,
        long driverTimeMs,
        long taskTimeMs,
        long recordedTaskTimeMs,
        long criticalPathMs,
        long idealMs,
        long estimatedActualMs,
        long errorMs,
        double relativeError,
        List<WhatIfPoint> curve,
        int stagesSimulated,
        int phases,
        long reconstructedTasks,
        List<WhatIfCaveat> caveats) {

    public WhatIfResult {
        curve = List.copyOf(curve);
        caveats = List.copyOf(caveats);
    }

    /** The estimate for one of the simulated executor counts, or -1 when that count was not simulated. */
    public long estimateFor(int executors) {
        for (WhatIfPoint p : curve) {
            if (p.executors() == executors) {
                return p.estimatedWallMs();
            }
        }
        return -1;
    }
}
