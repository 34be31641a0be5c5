package io.sparkscope.core.analysis.timeline;

/**
 * One task drawn on a lane. Phases in ms ({@link TaskPhase} order); all 0 and {@code metricsKnown} false when Spark
 * reported no metrics for the task (some failures), so nothing about its inside is claimed.
 *
 * <p>Placement: the bar spans the driver's [launch, finish]. Getting result is its end (the driver stamps it);
 * the executor-side phases sit right before it, ending when the executor sent its result; scheduler delay is what
 * remains at the start — there the task had been offered but the executor was not yet working on it.
 *
 * @param status    SUCCESS, FAILED or KILLED, as the recorder keeps it
 * @param endReason Spark's end-reason kind ("Success", "ExceptionFailure", "ExecutorLostFailure", "TaskKilled", …),
 *                  null when not recorded
 * @param lane      global lane index in {@link TaskTimeline#lanes()}
 */
public record TimelineBar(
        long taskId,
        int index,
        int attempt,
        String executorId,
        String host,
        String status,
        String endReason,
        boolean speculative,
        long launchTime,
        long finishTime,
        boolean metricsKnown,
        long schedulerDelayMs,
        long deserializeMs,
        long runMs,
        long resultSerializationMs,
        long gettingResultMs,
        int lane) {

    /** A task attempt that ended in failure (an exception, a lost executor, a fetch failure): its work is lost. */
    public boolean failed() {
        return "FAILED".equals(status);
    }

    /** A task attempt the driver killed (a speculative copy that lost the race, a cancelled stage). */
    public boolean killed() {
        return "KILLED".equals(status);
    }

    public long durationMs() {
        return Math.max(0, finishTime - launchTime);
    }

    public long phaseMs(TaskPhase p) {
        return switch (p) {
            case SCHEDULER_DELAY -> schedulerDelayMs;
            case DESERIALIZATION -> deserializeMs;
            case RUN -> runMs;
            case RESULT_SERIALIZATION -> resultSerializationMs;
            case GETTING_RESULT -> gettingResultMs;
        };
    }

    /** When the executor sent its result: the end of the executor-side phases (driver's clock). */
    public long executorEnd() {
        return finishTime - gettingResultMs;
    }

    /** When the executor started deserializing, by the placement rule; never before launch. */
    public long executorStart() {
        return Math.max(launchTime, executorEnd() - resultSerializationMs - runMs - deserializeMs);
    }

    /**
     * Start of phase {@code p} on the time axis (ms, epoch), by the placement rule; phases are clipped to the bar
     * when the executor's own times add up to more than the driver's duration (different clocks).
     */
    public long phaseStart(TaskPhase p) {
        long execEnd = executorEnd();
        return switch (p) {
            case SCHEDULER_DELAY -> launchTime;
            case DESERIALIZATION -> executorStart();
            case RUN -> Math.max(launchTime, execEnd - resultSerializationMs - runMs);
            case RESULT_SERIALIZATION -> Math.max(launchTime, execEnd - resultSerializationMs);
            case GETTING_RESULT -> execEnd;
        };
    }

    /** End of phase {@code p} on the time axis: the next phase's start (the last one ends at finish). */
    public long phaseEnd(TaskPhase p) {
        return switch (p) {
            case SCHEDULER_DELAY -> phaseStart(TaskPhase.DESERIALIZATION);
            case DESERIALIZATION -> phaseStart(TaskPhase.RUN);
            case RUN -> phaseStart(TaskPhase.RESULT_SERIALIZATION);
            case RESULT_SERIALIZATION -> phaseStart(TaskPhase.GETTING_RESULT);
            case GETTING_RESULT -> finishTime;
        };
    }
}
