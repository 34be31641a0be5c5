package io.sparkscope.core.recorder;

import io.sparkscope.core.model.TaskDistributions;

import java.util.Arrays;

/**
 * Limits and choices of a {@link Recorder}.
 *
 * @param tasksPerStage         the per-stage cap of tasks kept in detail: every successful or killed task of a stage
 *                              attempt up to it; past it the slowest half of the cap plus a uniform sample of the
 *                              others (failed tasks are kept besides, up to {@code failedTasksPerStage})
 * @param failedTasksPerStage   failed tasks kept in detail per stage attempt; beyond it only counted
 * @param quantiles             quantiles of the task distributions callers want (the standard ones are added)
 * @param exactTaskLimit        per stage attempt, successful tasks whose values are all kept; past it a uniform
 *                              reservoir sample of this size is kept instead and the distribution says so
 * @param retainedCompletedTasks values of completed stages are kept (so late task ends, e.g. of speculative copies,
 *                              still count) until the completed stages together hold more tasks than this
 * @param retainedDetailTasks   the application's task-detail budget: once the completed stages together keep more
 *                              tasks in detail than this, the oldest completed ones are reduced to their
 *                              {@link #THINNED_TASKS_PER_STAGE} slowest (and their failed ones)
 * @param retainedJobs          completed jobs kept in the driver once written, like Spark's
 *                              {@code spark.ui.retainedJobs} ({@link Window}; as many failed ones again);
 *                              {@link #UNLIMITED} keeps every one (offline analysis, the default)
 * @param retainedStages        completed stage attempts kept likewise ({@code spark.ui.retainedStages})
 * @param retainedSqlExecutions ended SQL executions kept likewise ({@code spark.sql.ui.retainedExecutions})
 * @param retainedDeadExecutors removed executors kept likewise ({@code spark.ui.retainedDeadExecutors}); live ones
 *                              always stay (there are never more than the cluster holds at once)
 */
public record RecorderOptions(
        int tasksPerStage,
        int failedTasksPerStage,
        double[] quantiles,
        int exactTaskLimit,
        int retainedCompletedTasks,
        int retainedDetailTasks,
        int retainedJobs,
        int retainedStages,
        int retainedSqlExecutions,
        int retainedDeadExecutors) {

    /** A window size that keeps everything. */
    public static final int UNLIMITED = Window.UNLIMITED;

    /** Bytes held per task value row: one long per {@link io.sparkscope.core.model.DistributionMetric}. */
    public static final int BYTES_PER_TASK_ROW = io.sparkscope.core.model.DistributionMetric.count() * Long.BYTES;

    /**
     * Approximate heap bytes of one task kept in detail: the {@code TaskRecord}, its {@code TaskMetrics} and their
     * array, and the references to them (strings are shared). Measured by the test-scope {@code KeptTaskBytes} (448 bytes
     * a task, 64-bit JVM with compressed references).
     */
    public static final int BYTES_PER_KEPT_TASK = 450;

    /** Tasks a completed stage keeps (its slowest) once the application's task-detail budget is spent. */
    public static final int THINNED_TASKS_PER_STAGE = 100;

    public static final RecorderOptions DEFAULTS =
            new RecorderOptions(10_000, 1000, TaskDistributions.SPARK_DEFAULT_QUANTILES, 200_000, 100_000, 100_000,
                    UNLIMITED, UNLIMITED, UNLIMITED, UNLIMITED);

    /**
     * Each window of {@link #withDefaultWindows()}: Spark's own UI default for jobs, stages and SQL executions (its
     * dead-executor default is 100; a thousand keeps every executor of all but very elastic applications).
     */
    public static final int DEFAULT_RETAINED = 1000;

    /**
     * Approximate heap bytes a completed job, stage attempt (one kept task, its summary) and SQL execution (a small
     * plan) of a long-running application hold while in the window, measured by the test program
     * {@code WindowBytes} (64-bit JVM, compressed references: 926, 3 500 and 2 000 bytes), rounded up; a small
     * stage's summary is mostly all-zero quantile rows, which share one array. Kept task records beyond the first,
     * task values and plan text come on top ({@link #detailBytesBound}, {@link #valueBytesBound}).
     */
    public static final int BYTES_PER_RETAINED_JOB = 1_000;
    public static final int BYTES_PER_RETAINED_STAGE = 4_000;
    public static final int BYTES_PER_RETAINED_SQL_EXECUTION = 3_000;
    /**
     * Approximate heap bytes of a removed executor in the window: its {@code LiveExecutor} (counters, the peak array
     * of every executor metric, strings) and its cached summary. Measured 605 bytes with 17 peak metrics (64-bit JVM,
     * compressed references), up to about 900 when each peak is a boxed value of its own; rounded up.
     */
    public static final int BYTES_PER_RETAINED_EXECUTOR = 1_000;

    /** Without window arguments: no window (everything kept). */
    public RecorderOptions(int tasksPerStage, int failedTasksPerStage, double[] quantiles, int exactTaskLimit,
                           int retainedCompletedTasks, int retainedDetailTasks) {
        this(tasksPerStage, failedTasksPerStage, quantiles, exactTaskLimit, retainedCompletedTasks,
                retainedDetailTasks, UNLIMITED, UNLIMITED, UNLIMITED, UNLIMITED);
    }

    /** Without a task-detail budget argument: the default budget. */
    public RecorderOptions(int tasksPerStage, int failedTasksPerStage, double[] quantiles, int exactTaskLimit,
                           int retainedCompletedTasks) {
        this(tasksPerStage, failedTasksPerStage, quantiles, exactTaskLimit, retainedCompletedTasks, 100_000,
                UNLIMITED, UNLIMITED, UNLIMITED, UNLIMITED);
    }

    public RecorderOptions {
        if (tasksPerStage < 0 || failedTasksPerStage < 0 || retainedDetailTasks < 0) {
            throw new IllegalArgumentException("task limits must be >= 0");
        }
        if (retainedJobs < 1 || retainedStages < 1 || retainedSqlExecutions < 1 || retainedDeadExecutors < 1) {
            throw new IllegalArgumentException("window sizes must be >= 1");
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
        return new RecorderOptions(tasksPerStage, failedTasksPerStage, q, exactTaskLimit, retainedCompletedTasks,
                retainedDetailTasks, retainedJobs, retainedStages, retainedSqlExecutions, retainedDeadExecutors);
    }

    public RecorderOptions withTasksPerStage(int n) {
        return new RecorderOptions(n, failedTasksPerStage, quantiles, exactTaskLimit, retainedCompletedTasks,
                retainedDetailTasks, retainedJobs, retainedStages, retainedSqlExecutions, retainedDeadExecutors);
    }

    public RecorderOptions withExactTaskLimit(int n) {
        return new RecorderOptions(tasksPerStage, failedTasksPerStage, quantiles, n, retainedCompletedTasks,
                retainedDetailTasks, retainedJobs, retainedStages, retainedSqlExecutions, retainedDeadExecutors);
    }

    public RecorderOptions withRetainedDetailTasks(int n) {
        return new RecorderOptions(tasksPerStage, failedTasksPerStage, quantiles, exactTaskLimit,
                retainedCompletedTasks, n, retainedJobs, retainedStages, retainedSqlExecutions, retainedDeadExecutors);
    }

    /**
     * A window of recent completed entities ({@code retainedJobs} jobs, {@code retainedStages} stage attempts,
     * {@code retainedSqlExecutions} SQL executions); {@link #UNLIMITED} for each keeps everything.
     */
    public RecorderOptions withWindow(int jobs, int stages, int sqlExecutions) {
        return new RecorderOptions(tasksPerStage, failedTasksPerStage, quantiles, exactTaskLimit,
                retainedCompletedTasks, retainedDetailTasks, jobs, stages, sqlExecutions, retainedDeadExecutors);
    }

    /** A window of {@code n} removed executors (as many again of those that failed); {@link #UNLIMITED} keeps all. */
    public RecorderOptions withDeadExecutorWindow(int n) {
        return new RecorderOptions(tasksPerStage, failedTasksPerStage, quantiles, exactTaskLimit,
                retainedCompletedTasks, retainedDetailTasks, retainedJobs, retainedStages, retainedSqlExecutions, n);
    }

    /**
     * Every window at {@link #DEFAULT_RETAINED}: what the live listener keeps unless configured otherwise, and what
     * {@code analyze}, {@code import}, {@code watch} and the archive import keep, so that no log, however many jobs or
     * executors it holds, needs more memory than these settings allow ({@link #windowBytesBound()}).
     */
    public RecorderOptions withDefaultWindows() {
        return withWindow(DEFAULT_RETAINED, DEFAULT_RETAINED, DEFAULT_RETAINED).withDeadExecutorWindow(DEFAULT_RETAINED);
    }

    /** Whether completed entities leave the driver (a live recorder of a long-running application). */
    public boolean windowed() {
        return retainedJobs != UNLIMITED || retainedStages != UNLIMITED || retainedSqlExecutions != UNLIMITED
                || retainedDeadExecutors != UNLIMITED;
    }

    /**
     * Upper bound of the bytes the window's completed jobs, stages and SQL executions hold: twice each window (the
     * failed ones are kept apart), twice again while the database is away and they wait to be written, times
     * {@link #BYTES_PER_RETAINED_JOB} and the others; removed executors, when they have a window, twice theirs (they
     * have no failed queue). Task detail, task values and plan text come on top, and so do the executors alive at
     * once.
     */
    public long windowBytesBound() {
        if (!windowed()) {
            return Long.MAX_VALUE;
        }
        long deadExecutors = retainedDeadExecutors == UNLIMITED ? 0
                : 2L * retainedDeadExecutors * BYTES_PER_RETAINED_EXECUTOR;
        return 4L * ((long) retainedJobs * BYTES_PER_RETAINED_JOB + (long) retainedStages * BYTES_PER_RETAINED_STAGE
                + (long) retainedSqlExecutions * BYTES_PER_RETAINED_SQL_EXECUTION) + deadExecutors;
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

    /**
     * Approximate upper bound of the bytes of successful and killed tasks kept in detail: {@code tasksPerStage} per
     * running stage attempt, {@code retainedDetailTasks} for the completed ones together, plus
     * {@link #THINNED_TASKS_PER_STAGE} per completed stage that was thinned; {@link #BYTES_PER_KEPT_TASK} each.
     * Failed tasks (up to {@code failedTasksPerStage} per attempt) come on top.
     */
    public long detailBytesBound(int runningStages, int completedStages) {
        long tasks = (long) tasksPerStage * runningStages + retainedDetailTasks
                + (long) Math.min(tasksPerStage, THINNED_TASKS_PER_STAGE) * completedStages;
        return tasks * BYTES_PER_KEPT_TASK;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RecorderOptions r && r.tasksPerStage == tasksPerStage
                && r.failedTasksPerStage == failedTasksPerStage && Arrays.equals(r.quantiles, quantiles)
                && r.exactTaskLimit == exactTaskLimit && r.retainedCompletedTasks == retainedCompletedTasks
                && r.retainedDetailTasks == retainedDetailTasks && r.retainedJobs == retainedJobs
                && r.retainedStages == retainedStages && r.retainedSqlExecutions == retainedSqlExecutions
                && r.retainedDeadExecutors == retainedDeadExecutors;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(quantiles) * 31 + tasksPerStage;
    }

    @Override
    public String toString() {
        return "RecorderOptions[tasksPerStage=" + tasksPerStage + ", failedTasksPerStage=" + failedTasksPerStage
                + ", quantiles=" + Arrays.toString(quantiles) + ", exactTaskLimit=" + exactTaskLimit
                + ", retainedCompletedTasks=" + retainedCompletedTasks + ", retainedDetailTasks=" + retainedDetailTasks
                + ", retainedJobs=" + retainedJobs + ", retainedStages=" + retainedStages
                + ", retainedSqlExecutions=" + retainedSqlExecutions + ", retainedDeadExecutors="
                + retainedDeadExecutors + "]";
    }
}
