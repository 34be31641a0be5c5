package io.sparkscope.core.event;

/**
 * Spark's {@code TaskInfo} as carried by task-start and task-end events. Times are epoch milliseconds stamped on the
 * driver: launch is when the driver offered the task, finish when the driver marked it done, so both include
 * driver-side waiting ({@code analysis.timeline.TaskPhase}).
 *
 * @param gettingResultTime when the driver started fetching an indirect result, 0 if it never did
 * @param finishTime        0 while the task runs
 */
public record TaskInfo(
        long taskId,
        int index,
        int attempt,
        int partitionId,
        long launchTime,
        String executorId,
        String host,
        String locality,
        boolean speculative,
        long gettingResultTime,
        long finishTime,
        boolean failed,
        boolean killed) {

    /** Spark's {@code TaskInfo.successful}: finished, neither failed nor killed. */
    public boolean successful() {
        return finishTime != 0 && !failed && !killed;
    }

    /** {@code finishTime - launchTime}, or 0 while running. */
    public long duration() {
        return finishTime == 0 ? 0 : finishTime - launchTime;
    }
}
