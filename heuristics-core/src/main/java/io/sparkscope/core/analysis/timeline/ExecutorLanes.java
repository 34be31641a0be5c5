package io.sparkscope.core.analysis.timeline;

/**
 * The lanes of one executor.
 *
 * @param slots                      concurrent tasks the executor can run ({@code cores / spark.task.cpus}); 0 when
 *                                   unknown (then no lane is marked as overflow)
 * @param firstLane                  index of its first lane in {@link TaskTimeline#lanes()}
 * @param lanes                      lanes drawn: {@code max(slots, maxConcurrent)}
 * @param tasks                      bars on them
 * @param maxConcurrent              most of its tasks overlapping at one moment, by driver-stamped launch/finish
 * @param executorSideMaxConcurrent  the same counting only the executor-side phases (tasks with metrics)
 */
public record ExecutorLanes(
        String executorId,
        String host,
        int slots,
        int firstLane,
        int lanes,
        int tasks,
        int maxConcurrent,
        int executorSideMaxConcurrent) {

    /** More tasks appear to run at once than the executor has slots: the artifact seed 002 describes. */
    public boolean overflow() {
        return slots > 0 && maxConcurrent > slots;
    }
}
