package io.sparkscope.core.analysis.timeline;

/**
 * The lanes of one executor.
 *
 * @param slots                      concurrent tasks the executor can run ({@code cores / spark.task.cpus}); 0 when
 *                                   unknown (then no lane is marked as overflow)
 * @param firstLane                  index of its first lane in {@link TaskTimeline#lanes()}
 * @param lanes                      lanes drawn: {@code maxConcurrent}, plus idle ones up to {@code slots} within
 *                                   {@link TaskTimeline#MAX_IDLE_LANES_PER_EXECUTOR} and the timeline's
 *                                   {@link TaskTimeline#MAX_IDLE_LANES}
 * @param tasks                      bars on them
 * @param maxConcurrent              most of its tasks overlapping at one moment, by driver-stamped launch/finish
 * @param executorSideMaxConcurrent  the same counting only the executor-side phases (tasks with metrics)
 * @param idleSlotsNotDrawn          slots beyond {@code lanes} that ran none of the shown tasks and got no lane, so
 *                                   that a claimed core count (200 000 000 in a damaged log) costs no memory
 */
public record ExecutorLanes(
        String executorId,
        String host,
        int slots,
        int firstLane,
        int lanes,
        int tasks,
        int maxConcurrent,
        int executorSideMaxConcurrent,
        int idleSlotsNotDrawn) {

    /** As the canonical constructor with every idle slot drawn. */
    public ExecutorLanes(String executorId, String host, int slots, int firstLane, int lanes, int tasks,
                         int maxConcurrent, int executorSideMaxConcurrent) {
        this(executorId, host, slots, firstLane, lanes, tasks, maxConcurrent, executorSideMaxConcurrent, 0);
    }

    /**
     * More tasks appear to run at once than the executor has slots: an artifact of the driver-side timestamps (see
     * {@link TaskTimeline}), not more work than the executor had cores for.
     */
    public boolean overflow() {
        return slots > 0 && maxConcurrent > slots;
    }
}
