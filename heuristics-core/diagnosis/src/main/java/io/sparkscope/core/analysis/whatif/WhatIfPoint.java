package io.sparkscope.core.analysis.whatif;

/**
 * One point of the what-if curve.
 *
 * @param executors        executors simulated (in local mode: driver cores, each counted as a one-core executor)
 * @param slots            task slots: {@code executors × coresPerExecutor} (the simulation uses at most one per task,
 *                         {@link WhatIfCaveat#SLOTS_CAPPED})
 * @param estimatedWallMs  simulated application wall time, driver-only time included
 * @param actual           true for the point that simulates the run's own executor count
 */
public record WhatIfPoint(int executors, long slots, long estimatedWallMs, boolean actual) {
}
