package io.sparkscope.core.analysis.timeline;

/**
 * One row of the timeline: one task slot of an executor (or, when its cores are unknown, one of the rows its
 * overlapping tasks need).
 *
 * @param slot 0-based slot on its executor
 */
public record TimelineLane(String executorId, int slot) {
}
