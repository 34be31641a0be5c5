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
        executors.add(new ExecutorSummary(id, "host-" + id, cores, addTime, removeTime, null, -1, tasks, 0, 0,
                taskTimeMs, taskTimeMs, 0, 0, 0, 0, 0, 0, 0, Map.of()));
        return this;
    }

    /** Sets the peak executor metrics (Spark's names) of an executor added before. */
    public SnapshotBuilder peaks(String id, Map<String, Long> peaks) {
        return replaceExecutor(id, e -> new ExecutorSummary(e.executorId(), e.host(), e.totalCores(), e.addTime(),
                e.removeTime(), e.removeReason(), e.maxMemory(), e.completedTasks(), e.failedTasks(), e.killedTasks(),
                e.totalDuration(), e.totalRunTime(), e.totalCpuTimeNs(), e.totalGcTime(), e.inputBytes(),
                e.shuffleReadBytes(), e.shuffleWriteBytes(), e.memoryBytesSpilled(), e.diskBytesSpilled(), peaks));
    }

    /** Marks an executor added before as removed at {@code time} for {@code reason}. */
    public SnapshotBuilder removed(String id, long time, String reason) {
        return replaceExecutor(id, e -> new ExecutorSummary(e.executorId(), e.host(), e.totalCores(), e.addTime(),
                time, reason, e.maxMemory(), e.completedTasks(), e.failedTasks(), e.killedTasks(),
                e.totalDuration(), e.totalRunTime(), e.totalCpuTimeNs(), e.totalGcTime(), e.inputBytes(),
                e.shuffleReadBytes(), e.shuffleWriteBytes(), e.memoryBytesSpilled(), e.diskBytesSpilled(),
                e.peakMetrics()));
    }

    /** Sets the GC time of an executor added before. */
    public SnapshotBuilder executorGc(String id, long gcMs) {
        return replaceExecutor(id, e -> new ExecutorSummary(e.executorId(), e.host(), e.totalCores(), e.addTime(),
                e.removeTime(), e.removeReason(), e.maxMemory(), e.completedTasks(), e.failedTasks(), e.killedTasks(),
                e.totalDuration(), e.totalRunTime(), e.totalCpuTimeNs(), gcMs, e.inputBytes(),
                e.shuffleReadBytes(), e.shuffleWriteBytes(), e.memoryBytesSpilled(), e.diskBytesSpilled(),
                e.peakMetrics()));
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
        jobs.add(new JobSummary(id, "job " + id, null, null, START, START + 1000, status, failureReason, List.of(),
                -1, 1, 1, 0, 0, 0));
        return this;
    }

    public SnapshotBuilder sqlJob(int id, long executionId) {
        jobs.add(new JobSummary(id, "job " + id, null, null, START, START + 1000, JobSummary.JobStatus.SUCCEEDED,
                null, List.of(), executionId, 1, 1, 0, 0, 0));
        return this;
    }

    public SnapshotBuilder sql(long executionId, PlanNode plan, Map<Long, Long> metricValues) {
        sql.add(new SqlExecutionSummary(executionId, "query " + executionId, START, START + 1000, null, "", plan,
                List.of(), metricValues));
        return this;
    }

    public StageBuilder stage(int stageId) {
        return new StageBuilder(this, stageId);
    }

    public AppSnapshot build() {
        return new AppSnapshot("app-test", null, "test", "tester", sparkVersion, START, START + durationMs,
                START + durationMs, true, new AppConfig(conf, Map.of(), Map.of(), Map.of()), executors, jobs, stages,
                sql, driverGcMs, -1, 0, Map.of());
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
                records.add(new TaskRecord(i, i, 0, i, t.executor, "host-" + t.executor, "PROCESS_LOCAL", false,
                        launch, finish, gettingResultAt, isFailed ? "FAILED" : "SUCCESS",
                        isFailed ? "ExceptionFailure" : "Success", t.error, m));
            }
            List<TaskRecord> kept = new ArrayList<>(records.stream().filter(r -> "FAILED".equals(r.status())).toList());
            kept.addAll(records.stream().filter(r -> !"FAILED".equals(r.status()))
                    .sorted((a, b) -> Long.compare(b.durationMs(), a.durationMs())).limit(keep).toList());
            int ok = okInfos.size();
            long wall = durationMs >= 0 ? durationMs : Math.max(0, lastFinish - stageStart);
            app.stages.add(new StageSummary(stageId, attemptId, name, "", status, numTasks >= 0 ? numTasks : ok + failed,
                    0, ok, failed, 0, ok, stageStart, stageStart + wall, tasks.isEmpty() ? -1 : stageStart,
                    lastFinish, failureReason, List.of(), jobIds, StageTotals.of(sums),
                    distributions(okInfos, okMetrics), kept, endReasons));
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
