package io.sparkscope.core.analysis.timeline;

/**
 * The lanes of one executor.
 *
 * @param slots                      concurrent tasks the executor can run ({@code cores / spark.task.cpus}); 0 when
 *                                   unknown (then its lanes are as many as its tasks overlap at most)
 * @param firstLane                  index of its first lane in {@link TaskTimeline#lanes()}
 * @param lanes                      lanes drawn: the slots its tasks used (never more than {@code slots}), plus
 *                                   idle ones up to {@code slots} within
 *                                   {@link TaskTimeline#MAX_IDLE_LANES_PER_EXECUTOR} and the timeline's
 *                                   {@link TaskTimeline#MAX_IDLE_LANES}
 * @param tasks                      bars on them
 * @param maxConcurrent              most of its tasks overlapping at one moment, by driver-stamped launch/finish
 * @param executorSideMaxConcurrent  the same counting only the executor-side phases (tasks with metrics)
 * @param idleSlotsNotDrawn          slots beyond {@code lanes} that ran none of the shown tasks and got no lane, so
 *                                   that a claimed core count (200 000 000 in a damaged log) costs no memory
 * @param crowded                    tasks launched while every slot was still busy by the driver's timestamps: each
 *                                   is drawn over the slot that freed first, overlapping the bar before it
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
        int idleSlotsNotDrawn,
        int crowded) {

    /**
     * More tasks appear to run at once than the executor has slots: an artifact of the driver-side timestamps (see
     * {@link TaskTimeline}), not more work than the executor had cores for. Its lanes stay its slots; the
     * {@link #crowded} tasks overlap others on them.
     */
    public boolean overflow() {
        return slots > 0 && maxConcurrent > slots;
    }
}
