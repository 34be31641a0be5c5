package io.sparkscope.core.analysis.timeline;

/**
 * One row of the timeline: one task slot of an executor.
 *
 * @param slot     0-based slot on its executor
 * @param overflow beyond the executor's slots: only needed because tasks appear to overlap more than its cores allow
 */
public record TimelineLane(String executorId, int slot, boolean overflow) {
}
