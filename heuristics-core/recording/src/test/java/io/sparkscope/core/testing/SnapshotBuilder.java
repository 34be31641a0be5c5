package io.sparkscope.core.testing;

import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Test fixture: builds {@link AppSnapshot}s in a few fluent lines, computing stage totals and exact quantiles from
 * the tasks given (Spark's rule, as the recorder does), so heuristic tests state only the numbers that matter.
 *
 * <pre>
 * AppSnapshot app = SnapshotBuilder.app().durationMs(600_000).master("yarn")
 *         .stage(3).tasks(100, i -> task().runTime(i == 0 ? 60_000 : 2_000)).done()
 *         .build();
 * </pre>
 * Presets name the shapes many tests share: {@link StageBuilder#skewed}, {@link StageBuilder#spilling} and
 * {@link #idleExecutorApp}. {@link #copy} changes a few values of a snapshot another fixture made.
 */
public final class SnapshotBuilder {
    public static final long START = 1_700_000_000_000L;

    private long durationMs = 120_000;
    private final Map<String, String> conf = new HashMap<>(Map.of("spark.master", "local[4]"));
    private String sparkVersion = "4.0.4";
    private long driverGcMs = -1;
    private final List<ExecutorSummary> executors = new ArrayList<>();
    private final List<JobSummary> jobs = new ArrayList<>();
    private final List<StageSummary> stages = new ArrayList<>();
    private final List<SqlExecutionSummary> sql = new ArrayList<>();

    public static SnapshotBuilder app() {
        return new SnapshotBuilder();
    }

    public static Task task() {
        return new Task();
    }

    /**
     * An application on YARN with one executor of {@code cores} cores, alive the whole {@code durationMs}, that ran
     * tasks for only {@code taskTimeMs}: its cores sat idle the rest of the time.
     */
    public static SnapshotBuilder idleExecutorApp(long durationMs, int cores, long taskTimeMs) {
        return app().master("yarn").durationMs(durationMs).executor("1", cores, taskTimeMs);
    }

    /**
     * The executor with what every source records of it and no more: its Spark counts and totals, without peak
     * metrics, block-manager address, task starts or storage memory split (those read as unknown). For comparing
     * snapshots of one run made by two sources.
     */
    public static ExecutorSummary basicExecutor(ExecutorSummary e) {
        return ExecutorSummary.builder().executorId(e.executorId()).host(e.host()).totalCores(e.totalCores())
                .addTime(e.addTime()).removeTime(e.removeTime()).removeReason(e.removeReason()).maxMemory(e.maxMemory())
                .completedTasks(e.completedTasks()).failedTasks(e.failedTasks()).killedTasks(e.killedTasks())
                .totalDuration(e.totalDuration()).totalRunTime(e.totalRunTime()).totalCpuTimeNs(e.totalCpuTimeNs())
                .totalGcTime(e.totalGcTime()).inputBytes(e.inputBytes()).shuffleReadBytes(e.shuffleReadBytes())
                .shuffleWriteBytes(e.shuffleWriteBytes()).memoryBytesSpilled(e.memoryBytesSpilled())
                .diskBytesSpilled(e.diskBytesSpilled()).build();
    }

    /**
     * A builder holding {@code s} to change a few of its values (lists included): its run totals are computed again
     * from the lists, as for a full snapshot.
     */
    public static AppSnapshot.Builder copy(AppSnapshot s) {
        return s.toBuilder().totals(null).partial(false);
    }

    public SnapshotBuilder durationMs(long ms) {
        this.durationMs = ms;
        return this;
    }

    public SnapshotBuilder master(String master) {
        return conf("spark.master", master);
    }

    public SnapshotBuilder conf(String key, String value) {
        conf.put(key, value);
        return this;
    }

    public SnapshotBuilder sparkVersion(String version) {
        this.sparkVersion = version;
        return this;
    }

    public SnapshotBuilder driverGcMs(long ms) {
        this.driverGcMs = ms;
        return this;
    }

    /** An executor alive for the whole application that ran tasks for {@code taskTimeMs}. */
    public SnapshotBuilder executor(String id, int cores, long taskTimeMs) {
        return executor(id, cores, taskTimeMs, START, -1);
    }

    public SnapshotBuilder executor(String id, int cores, long taskTimeMs, long addTime, long removeTime) {
        int tasks = taskTimeMs > 0 ? 10 : 0;
        executors.add(ExecutorSummary.builder().executorId(id).host("host-" + id).totalCores(cores).addTime(addTime)
                .removeTime(removeTime).completedTasks(tasks).totalDuration(taskTimeMs).totalRunTime(taskTimeMs)
                .build());
        return this;
    }

    /** Sets the peak executor metrics (Spark's names) of an executor added before. */
    public SnapshotBuilder peaks(String id, Map<String, Long> peaks) {
        return replaceExecutor(id, e -> e.toBuilder().peakMetrics(peaks).build());
    }

    /** Marks an executor added before as removed at {@code time} for {@code reason}. */
    public SnapshotBuilder removed(String id, long time, String reason) {
        return replaceExecutor(id, e -> e.toBuilder().removeTime(time).removeReason(reason).build());
    }

    /** Sets the GC time of an executor added before. */
    public SnapshotBuilder executorGc(String id, long gcMs) {
        return replaceExecutor(id, e -> e.toBuilder().totalGcTime(gcMs).build());
    }

    private SnapshotBuilder replaceExecutor(String id, java.util.function.UnaryOperator<ExecutorSummary> change) {
        for (int i = 0; i < executors.size(); i++) {
            if (executors.get(i).executorId().equals(id)) {
                executors.set(i, change.apply(executors.get(i)));
                return this;
            }
        }
        throw new IllegalArgumentException("no executor " + id + " added yet");
    }

    public SnapshotBuilder job(int id, JobSummary.JobStatus status, String failureReason) {
        jobs.add(JobSummary.builder().jobId(id).name("job " + id).submissionTime(START).completionTime(START + 1000)
                .status(status).failureReason(failureReason).numTasks(1).numCompletedTasks(1).build());
        return this;
    }

    public SnapshotBuilder sqlJob(int id, long executionId) {
        jobs.add(JobSummary.builder().jobId(id).name("job " + id).submissionTime(START).completionTime(START + 1000)
                .status(JobSummary.JobStatus.SUCCEEDED).sqlExecutionId(executionId).numTasks(1).numCompletedTasks(1)
                .build());
        return this;
    }

    public SnapshotBuilder sql(long executionId, PlanNode plan, Map<Long, Long> metricValues) {
        sql.add(SqlExecutionSummary.builder().executionId(executionId).description("query " + executionId)
                .startTime(START).endTime(START + 1000).physicalPlanDescription("").plan(plan)
                .metricValues(metricValues).build());
        return this;
    }

    public StageBuilder stage(int stageId) {
        return new StageBuilder(this, stageId);
    }

    public AppSnapshot build() {
        return AppSnapshot.builder().appId("app-test").appName("test").sparkUser("tester").sparkVersion(sparkVersion)
                .startTime(START).endTime(START + durationMs).lastEventTime(START + durationMs).complete(true)
                .config(new AppConfig(conf, Map.of(), Map.of(), Map.of())).executors(executors).jobs(jobs)
                .stages(stages).sqlExecutions(sql).driverGcTimeMs(driverGcMs).build();
    }

    /** One task's numbers; unset metrics are 0, duration defaults to run time + scheduler delay + getting result. */
    public static final class Task {
        long runTime = 1000;
        long duration = -1;
        long schedulerDelay;
        long gettingResult;
        final TaskMetrics.Builder metrics = TaskMetrics.builder();
        String executor = "1";
        String error;

        public Task runTime(long ms) {
            runTime = ms;
            return this;
        }

        public Task duration(long ms) {
            duration = ms;
            return this;
        }

        public Task schedulerDelay(long ms) {
            schedulerDelay = ms;
            return this;
        }

        public Task gettingResult(long ms) {
            gettingResult = ms;
            return this;
        }

        public Task gc(long ms) {
            return metric(TaskMetric.JVM_GC_TIME, ms);
        }

        public Task input(long bytes) {
            return metric(TaskMetric.INPUT_BYTES, bytes);
        }

        public Task output(long bytes) {
            return metric(TaskMetric.OUTPUT_BYTES, bytes);
        }

        public Task shuffleRead(long bytes) {
            return metric(TaskMetric.SHUFFLE_LOCAL_BYTES_READ, bytes);
        }

        public Task shuffleWrite(long bytes) {
            return metric(TaskMetric.SHUFFLE_BYTES_WRITTEN, bytes);
        }

        public Task spill(long memoryBytes, long diskBytes) {
            metric(TaskMetric.MEMORY_BYTES_SPILLED, memoryBytes);
            return metric(TaskMetric.DISK_BYTES_SPILLED, diskBytes);
        }

        public Task executor(String id) {
            executor = id;
            return this;
        }

        public Task failed(String error) {
            this.error = error;
            return this;
        }

        public Task metric(TaskMetric m, long value) {
            metrics.set(m, value);
            return this;
        }
    }

    public static final class StageBuilder {
        private final SnapshotBuilder app;
        private final int stageId;
        private int attemptId;
        private String name;
        private StageSummary.StageStatus status = StageSummary.StageStatus.COMPLETE;
        private String failureReason;
        private long startOffsetMs;
        private long durationMs = -1;
        private int numTasks = -1;
        private int keep = Integer.MAX_VALUE;
        private int slots = Integer.MAX_VALUE;
        private List<Integer> jobIds = List.of(0);
        private final List<Task> tasks = new ArrayList<>();

        StageBuilder(SnapshotBuilder app, int stageId) {
            this.app = app;
            this.stageId = stageId;
            this.name = "stage " + stageId + " at Test.scala:" + stageId;
        }

        public StageBuilder attempt(int attemptId) {
            this.attemptId = attemptId;
            return this;
        }

        public StageBuilder failed(String reason) {
            this.status = StageSummary.StageStatus.FAILED;
            this.failureReason = reason;
            return this;
        }

        /** Stage start relative to the application start. */
        public StageBuilder startAt(long offsetMs) {
            this.startOffsetMs = offsetMs;
            return this;
        }

        /** Stage wall time; defaults to its longest task. */
        public StageBuilder durationMs(long ms) {
            this.durationMs = ms;
            return this;
        }

        /** Declared task count (Spark's numTasks); defaults to the tasks given. */
        public StageBuilder numTasks(int n) {
            this.numTasks = n;
            return this;
        }

        /** Run the tasks on {@code n} cores, one after another per core; by default all start at once. */
        public StageBuilder slots(int n) {
            this.slots = n;
            return this;
        }

        /** The jobs this stage belongs to (default: job 0). */
        public StageBuilder jobs(Integer... ids) {
            this.jobIds = List.of(ids);
            return this;
        }

        /** Keep only the {@code n} slowest tasks (plus failed ones), as the recorder does. */
        public StageBuilder keep(int n) {
            this.keep = n;
            return this;
        }

        public StageBuilder tasks(int n, IntFunction<Task> spec) {
            for (int i = 0; i < n; i++) {
                tasks.add(spec.apply(i));
            }
            return this;
        }

        public StageBuilder task(Task t) {
            tasks.add(t);
            return this;
        }

        /** {@code n} tasks of {@code typicalMs} run time but the first, which runs {@code slowMs}. */
        public StageBuilder skewed(int n, long slowMs, long typicalMs) {
            return tasks(n, i -> SnapshotBuilder.task().runTime(i == 0 ? slowMs : typicalMs));
        }

        /** {@code n} tasks that each read 100 MiB of shuffle and spill these bytes from memory and to disk. */
        public StageBuilder spilling(int n, long memoryBytes, long diskBytes) {
            return tasks(n, i -> SnapshotBuilder.task().shuffleRead(100L << 20).spill(memoryBytes, diskBytes));
        }

        public SnapshotBuilder done() {
            long stageStart = START + startOffsetMs;
            long[] sums = new long[TaskMetric.count()];
            List<TaskInfo> okInfos = new ArrayList<>();
            List<TaskMetrics> okMetrics = new ArrayList<>();
            List<TaskRecord> records = new ArrayList<>();
            Map<String, Integer> endReasons = new HashMap<>();
            int failed = 0;
            long lastFinish = -1;
            long[] slotFree = new long[Math.min(slots, Math.max(1, tasks.size()))];
            Arrays.fill(slotFree, stageStart);
            for (int i = 0; i < tasks.size(); i++) {
                Task t = tasks.get(i);
                int slot = i % slotFree.length;
                long launch = slotFree[slot];
                TaskMetrics m = t.metrics.set(TaskMetric.EXECUTOR_RUN_TIME, t.runTime).build();
                long duration = t.duration >= 0 ? t.duration : t.runTime + t.schedulerDelay + t.gettingResult;
                long finish = launch + duration;
                slotFree[slot] = finish;
                long gettingResultAt = t.gettingResult > 0 ? finish - t.gettingResult : 0;
                boolean isFailed = t.error != null;
                TaskInfo info = new TaskInfo(i, i, 0, i, launch, t.executor, "host-" + t.executor, "PROCESS_LOCAL",
                        false, gettingResultAt, finish, isFailed, false);
                StageTotals.accumulate(sums, m);
                lastFinish = Math.max(lastFinish, finish);
                if (isFailed) {
                    failed++;
                    endReasons.merge("ExceptionFailure", 1, Integer::sum);
                } else {
                    okInfos.add(info);
                    okMetrics.add(m);
                }
                records.add(TaskRecord.builder().taskId(i).index(i).partitionId(i).executorId(t.executor)
                        .host("host-" + t.executor).locality("PROCESS_LOCAL").launchTime(launch).finishTime(finish)
                        .gettingResultTime(gettingResultAt).status(isFailed ? "FAILED" : "SUCCESS")
                        .endReason(isFailed ? "ExceptionFailure" : "Success").errorMessage(t.error).metrics(m).build());
            }
            List<TaskRecord> kept = new ArrayList<>(records.stream().filter(r -> "FAILED".equals(r.status())).toList());
            kept.addAll(records.stream().filter(r -> !"FAILED".equals(r.status()))
                    .sorted((a, b) -> Long.compare(b.durationMs(), a.durationMs())).limit(keep).toList());
            int ok = okInfos.size();
            long wall = durationMs >= 0 ? durationMs : Math.max(0, lastFinish - stageStart);
            app.stages.add(StageSummary.builder().stageId(stageId).attemptId(attemptId).name(name).details("")
                    .status(status).numTasks(numTasks >= 0 ? numTasks : ok + failed).numCompleteTasks(ok)
                    .numFailedTasks(failed).numCompletedIndices(ok).submissionTime(stageStart)
                    .completionTime(stageStart + wall).firstTaskLaunchedTime(tasks.isEmpty() ? -1 : stageStart)
                    .lastTaskFinishedTime(lastFinish).failureReason(failureReason).jobIds(jobIds)
                    .totals(StageTotals.of(sums)).taskSummary(distributions(okInfos, okMetrics)).keptTasks(kept)
                    .endReasons(endReasons).build());
            return app;
        }

        private static TaskDistributions distributions(List<TaskInfo> infos, List<TaskMetrics> metrics) {
            long[][] rows = SparkQuantiles.rows(infos.size());
            for (DistributionMetric dm : DistributionMetric.values()) {
                for (int i = 0; i < infos.size(); i++) {
                    rows[dm.ordinal()][i] = dm.valueOf(infos.get(i), metrics.get(i));
                }
            }
            return SparkQuantiles.of(rows, infos.size());
        }
    }
}
