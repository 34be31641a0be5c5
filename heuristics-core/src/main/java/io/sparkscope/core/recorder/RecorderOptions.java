package io.sparkscope.core.recorder;

import io.sparkscope.core.model.TaskDistributions;

import java.util.Arrays;

/**
 * Limits and choices of a {@link Recorder}.
 *
 * @param tasksPerStage         slowest tasks kept in detail per stage attempt (failed ones are kept besides)
 * @param failedTasksPerStage   failed tasks kept in detail per stage attempt; beyond it only counted
 * @param quantiles             quantiles of the task distributions callers want (the standard ones are added)
 * @param exactTaskLimit        per stage attempt, successful tasks whose values are all kept; past it a uniform
 *                              reservoir sample of this size is kept instead and the distribution says so
 * @param retainedCompletedTasks values of completed stages are kept (so late task ends, e.g. of speculative copies,
 *                              still count) until the completed stages together hold more tasks than this
 */
public record RecorderOptions(
        int tasksPerStage,
        int failedTasksPerStage,
        double[] quantiles,
        int exactTaskLimit,
        int retainedCompletedTasks) {

    /** Bytes held per task value row: one long per {@link io.sparkscope.core.model.DistributionMetric}. */
    public static final int BYTES_PER_TASK_ROW = io.sparkscope.core.model.DistributionMetric.count() * Long.BYTES;

    public static final RecorderOptions DEFAULTS =
            new RecorderOptions(100, 1000, TaskDistributions.SPARK_DEFAULT_QUANTILES, 200_000, 100_000);

    public RecorderOptions {
        if (tasksPerStage < 0 || failedTasksPerStage < 0) {
            throw new IllegalArgumentException("task limits must be >= 0");
        }
        if (exactTaskLimit < 1) {
            throw new IllegalArgumentException("exactTaskLimit must be >= 1");
        }
        for (double q : quantiles) {
            if (!(q >= 0.0 && q <= 1.0)) {
                throw new IllegalArgumentException("quantile " + q + " is outside [0, 1]");
            }
        }
        quantiles = quantiles.clone();
    }

    public RecorderOptions withQuantiles(double[] q) {
        return new RecorderOptions(tasksPerStage, failedTasksPerStage, q, exactTaskLimit, retainedCompletedTasks);
    }

    public RecorderOptions withTasksPerStage(int n) {
        return new RecorderOptions(n, failedTasksPerStage, quantiles, exactTaskLimit, retainedCompletedTasks);
    }

    public RecorderOptions withExactTaskLimit(int n) {
        return new RecorderOptions(tasksPerStage, failedTasksPerStage, quantiles, n, retainedCompletedTasks);
    }

    /** Requested quantiles plus {@link TaskDistributions#STANDARD_QUANTILES}, sorted, without duplicates. */
    public double[] computedQuantiles() {
        double[] all = new double[quantiles.length + TaskDistributions.STANDARD_QUANTILES.length];
        System.arraycopy(quantiles, 0, all, 0, quantiles.length);
        System.arraycopy(TaskDistributions.STANDARD_QUANTILES, 0, all, quantiles.length,
                TaskDistributions.STANDARD_QUANTILES.length);
        return Arrays.stream(all).sorted().distinct().toArray();
    }

    /**
     * Upper bound of the bytes of task values held for stages in flight: {@code exactTaskLimit} rows per running
     * stage attempt plus {@code retainedCompletedTasks} rows of completed ones, {@link #BYTES_PER_TASK_ROW} each.
     */
    public long valueBytesBound(int concurrentStages) {
        return ((long) exactTaskLimit * concurrentStages + retainedCompletedTasks) * BYTES_PER_TASK_ROW;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RecorderOptions r && r.tasksPerStage == tasksPerStage
                && r.failedTasksPerStage == failedTasksPerStage && Arrays.equals(r.quantiles, quantiles)
                && r.exactTaskLimit == exactTaskLimit && r.retainedCompletedTasks == retainedCompletedTasks;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(quantiles) * 31 + tasksPerStage;
    }

    @Override
    public String toString() {
        return "RecorderOptions[tasksPerStage=" + tasksPerStage + ", failedTasksPerStage=" + failedTasksPerStage
                + ", quantiles=" + Arrays.toString(quantiles) + ", exactTaskLimit=" + exactTaskLimit
                + ", retainedCompletedTasks=" + retainedCompletedTasks + "]";
    }
}
