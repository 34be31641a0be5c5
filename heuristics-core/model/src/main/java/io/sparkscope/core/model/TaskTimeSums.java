package io.sparkscope.core.model;

/**
 * Per stage attempt, sums of the task times that are not Spark task metrics but derived from a task's driver-side
 * timestamps, computed as Spark computes them, over the same population as {@link StageTotals}: every task-end event that carries
 * metrics. Together with the totals' {@code executorDeserializeTime}, {@code executorRunTime} and
 * {@code resultSerializationTime} they say where the stage's task time went without reading any task row.
 *
 * @param durationMs       Σ (finishTime − launchTime)
 * @param schedulerDelayMs Σ Spark's scheduler delay, the driver-side remainder (each task's clamped at 0, so the five
 *                         parts can add up to slightly more than {@code durationMs})
 * @param gettingResultMs  Σ (finishTime − gettingResultTime) of tasks whose result the driver fetched
 */
public record TaskTimeSums(long durationMs, long schedulerDelayMs, long gettingResultMs) {
    public static final TaskTimeSums ZERO = new TaskTimeSums(0, 0, 0);
}
