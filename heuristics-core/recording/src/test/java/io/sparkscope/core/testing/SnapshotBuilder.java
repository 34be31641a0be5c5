package io.sparkscope.core.testing;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.model.TaskTimeSums;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/**
 * The one test fixture for {@link AppSnapshot}s, for the tests of every module: a fluent builder plus named presets.
 * Each builds what the recorder would (stage totals over every task, quantiles over the successful ones with Spark's
 * rule), so a test states only the numbers that matter to it.
 *
 * <pre>
 * AppSnapshot app = SnapshotBuilder.app().durationMs(600_000).master("yarn")
 *         .stage(3).tasks(100, i -> task().runTime(i == 0 ? 60_000 : 2_000)).done()
 *         .build();
 * </pre>
 * Where to start:
 * <ul>
 *   <li>{@link #app()}: an application in a few fluent lines, each task's metrics set by hand ({@link #stage(int)});
 *       the heuristics' tests. Stage presets {@link StageBuilder#skewed} and {@link StageBuilder#spilling}; an
 *       application whose executor sat idle, {@link #idleExecutorApp}.</li>
 *   <li>{@link #dagApp(String)}: a stage DAG with jobs, executor lifetimes and exact task durations placed in time
 *       ({@link #stage(int, int)}); the analyses' tests (what-if, prediction, regression).</li>
 *   <li>{@link #rich} and {@link #big}: a small application with every kind of row and hostile strings, and a big
 *       one; the store's round trips and benchmarks.</li>
 *   <li>{@link #synthetic}: an application from a {@link SyntheticSpec} with seeded random task times, so the
 *       heuristics find real things; the web tests and the latency bench. {@link #onCluster} moves it to YARN.</li>
 *   <li>{@link #failingStageCancelsOthers}: an application the real recorder made from events, whose stage fails
 *       out of memory and whose other stage is cancelled; the diagnosis views.</li>
 *   <li>{@link #copy}: a few values of any snapshot changed (the records' {@code toBuilder()}, run totals computed
 *       again), so a test never lists every field of a record.</li>
 * </ul>
 */
public final class SnapshotBuilder {
    /** Start of {@link #app()} and {@link #dagApp} applications; their times are offsets from it. */
    public static final long START = 1_700_000_000_000L;
    /** Start of the {@link #rich} and {@link #big} applications. */
    public static final long RICH_START = 1_764_400_000_000L;

    /** Configuration values that break naive SQL, JSON or HTML: quotes, unicode, control characters, wildcards. */
    public static final Map<String, String> NASTY_CONFIG = Map.of(
            "spark.app.note", "it's \"quoted\" '; DROP TABLE application; --",
            "spark.unicode", "Grüße 日本語 🚀 \\ backslash \t tab\nnewline",
            "spark.empty", "",
            "spark.json.like", "{\"a\": [1, 2]}",
            "spark.percent", "100% _under_");

    private String appId = "app-test";
    private String appName = "test";
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

    /**
     * An application named {@code name} on YARN (id "app-1", Spark 3.5.1, 60 s) whose stages are placed in time with
     * {@link #stage(int, int)} and its executors with {@link #executors(int, int)}, {@link #local(int)} or
     * {@link #executor(String, int, long, long)}.
     */
    public static SnapshotBuilder dagApp(String name) {
        return app().id("app-1").name(name).durationMs(60_000).master("yarn").sparkVersion("3.5.1");
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

    public SnapshotBuilder id(String id) {
        this.appId = id;
        return this;
    }

    public SnapshotBuilder name(String name) {
        this.appName = name;
        return this;
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

    /** {@code n} executors "1".."n" of {@code cores} cores each, alive the whole run, that ran no tasks. */
    public SnapshotBuilder executors(int n, int cores) {
        for (int i = 1; i <= n; i++) {
            executor(String.valueOf(i), cores, 0, START, -1);
        }
        return this;
    }

    /**
     * An executor that ran no tasks, added and removed at these offsets from the start ({@code removeOffset < 0}:
     * never removed). Mind the five-argument form: task time, then absolute times.
     */
    public SnapshotBuilder executor(String id, int cores, long addOffset, long removeOffset) {
        return executor(id, cores, 0, START + addOffset, removeOffset < 0 ? -1 : START + removeOffset);
    }

    /** Local mode: the driver runs the tasks on {@code cores} cores. */
    public SnapshotBuilder local(int cores) {
        master("local[" + cores + "]");
        return executor("driver", cores, 0, START, -1);
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

    private SnapshotBuilder replaceExecutor(String id, UnaryOperator<ExecutorSummary> change) {
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

    /** A succeeded job of these stages, submitted and completed at these offsets from the start. */
    public SnapshotBuilder job(int jobId, long submitOffset, long completeOffset, Integer... stageIds) {
        jobs.add(JobSummary.builder().jobId(jobId).name("job " + jobId).submissionTime(START + submitOffset)
                .completionTime(START + completeOffset).status(JobSummary.JobStatus.SUCCEEDED)
                .stageIds(List.of(stageIds)).build());
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

    /** A stage whose tasks are given one by one ({@link Task}), statistics computed from them. */
    public StageBuilder stage(int stageId) {
        return new StageBuilder(this, stageId);
    }

    /** A stage of job {@code jobId} placed in time ({@link DagStage#window}), tasks given as durations. */
    public DagStage stage(int stageId, int jobId) {
        return new DagStage(this, stageId, jobId);
    }

    public AppSnapshot build() {
        return AppSnapshot.builder().appId(appId).appName(appName).sparkUser("tester").sparkVersion(sparkVersion)
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
        int index = -1;

        /** The task's index in its stage (default: its position), so that several attempts of one task can be built. */
        public Task index(int index) {
            this.index = index;
            return this;
        }

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
                int index = t.index >= 0 ? t.index : i;
                TaskInfo info = new TaskInfo(i, index, 0, index, launch, t.executor, "host-" + t.executor, "PROCESS_LOCAL",
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
                records.add(TaskRecord.builder().taskId(i).index(index).partitionId(index).executorId(t.executor)
                        .host("host-" + t.executor).locality("PROCESS_LOCAL").launchTime(launch).finishTime(finish)
                        .gettingResultTime(gettingResultAt).status(isFailed ? "FAILED" : "SUCCESS")
                        .endReason(isFailed ? "ExceptionFailure" : "Success").errorMessage(t.error).metrics(m).build());
            }
            List<TaskRecord> kept = new ArrayList<>(records.stream().filter(r -> "FAILED".equals(r.status())).toList());
            kept.addAll(slowest(records.stream().filter(r -> !"FAILED".equals(r.status())).toList(), keep));
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

    /**
     * One stage attempt of a job DAG ({@link #dagApp}): its window is where its tasks ran (first launch to last
     * finish), as offsets from the start; each task's duration is its run time, and only duration and run time enter
     * the quantiles.
     */
    public static final class DagStage {
        private final SnapshotBuilder app;
        private final int stageId;
        private final int jobId;
        private int attemptId;
        private String name;
        private List<Integer> parents = List.of();
        private long from;
        private long to = -1;
        private long[] durations = new long[0];
        private long[] launches;
        private int keep = Integer.MAX_VALUE;
        private long inputBytes;
        private boolean skipped;

        DagStage(SnapshotBuilder app, int stageId, int jobId) {
            this.app = app;
            this.stageId = stageId;
            this.jobId = jobId;
            this.name = "stage " + stageId;
        }

        public DagStage attempt(int a) {
            attemptId = a;
            return this;
        }

        public DagStage name(String n) {
            name = n;
            return this;
        }

        public DagStage parents(Integer... ids) {
            parents = List.of(ids);
            return this;
        }

        /** Where its tasks ran; the stage is submitted at {@code from} and completes at {@code to}. */
        public DagStage window(long fromOffset, long toOffset) {
            from = fromOffset;
            to = toOffset;
            return this;
        }

        public DagStage tasks(long... ms) {
            durations = ms.clone();
            return this;
        }

        /** Launch offsets of the tasks, one per task (default: all at the window start, in the given order). */
        public DagStage launches(long... offsets) {
            launches = offsets.clone();
            return this;
        }

        /** Keep only the {@code n} slowest tasks, as the recorder does. */
        public DagStage keep(int n) {
            keep = n;
            return this;
        }

        /** Input bytes of the first task. */
        public DagStage inputBytes(long bytes) {
            inputBytes = bytes;
            return this;
        }

        public DagStage skipped() {
            skipped = true;
            return this;
        }

        public SnapshotBuilder done() {
            StageSummary.Builder stage = StageSummary.builder().stageId(stageId).attemptId(attemptId).name(name)
                    .details("").parentIds(parents).jobIds(List.of(jobId));
            if (skipped) {
                app.stages.add(stage.status(StageSummary.StageStatus.SKIPPED).build());
                return app;
            }
            long start = START + from;
            long end = to >= 0 ? START + to : start + Arrays.stream(durations).max().orElse(0);
            List<TaskRecord> records = new ArrayList<>();
            long[] sums = new long[TaskMetric.count()];
            for (int i = 0; i < durations.length; i++) {
                long launch = launches != null ? START + launches[i] : start;
                TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, durations[i])
                        .set(TaskMetric.INPUT_BYTES, i == 0 ? inputBytes : 0).build();
                StageTotals.accumulate(sums, m);
                records.add(TaskRecord.builder().taskId(i).index(i).partitionId(i).executorId("1").host("host-1")
                        .locality("PROCESS_LOCAL").launchTime(launch).finishTime(launch + durations[i])
                        .status("SUCCESS").endReason("Success").metrics(m).build());
            }
            int n = durations.length;
            long[][] rows = SparkQuantiles.rows(n);
            rows[DistributionMetric.DURATION.ordinal()] = durations;
            rows[DistributionMetric.EXECUTOR_RUN_TIME.ordinal()] = durations;
            app.stages.add(stage.status(StageSummary.StageStatus.COMPLETE).numTasks(n).numCompleteTasks(n)
                    .numCompletedIndices(n).submissionTime(start).completionTime(end)
                    .firstTaskLaunchedTime(n == 0 ? -1 : start).lastTaskFinishedTime(n == 0 ? -1 : end)
                    .totals(StageTotals.of(sums)).taskSummary(SparkQuantiles.of(rows, n))
                    .keptTasks(slowest(records, keep)).build());
            return app;
        }
    }

    /** The {@code keep} slowest of these tasks, slowest first. */
    private static List<TaskRecord> slowest(List<TaskRecord> tasks, int keep) {
        return tasks.stream().sorted((a, b) -> Long.compare(b.durationMs(), a.durationMs())).limit(keep).toList();
    }

    // ---- an application recorded from events by the real recorder: a failing stage and a cancelled one ----

    private static final String OOM = "java.lang.OutOfMemoryError: Unable to acquire %d bytes of memory, got %d"
            + " (buffer at 0x7f%06x)\n\tat org.apache.spark.memory.MemoryConsumer.throwOom(MemoryConsumer.java:157)"
            + "\n\tat org.apache.spark.util.collection.ExternalSorter.insertAll(ExternalSorter.scala:%d)"
            + "\n\tat org.apache.spark.scheduler.ShuffleMapTask.runTask(ShuffleMapTask.scala:59)"
            + "\n\tat org.apache.spark.scheduler.Task.run(Task.scala:141)\n\tat java.base/java.lang.Thread.run";

    /**
     * An application the real recorder made from events, for the diagnosis views. Stage 0 (job 0, 8 tasks on 2
     * executors): partition 3 fails with {@link #OOM} on each of its 4 attempts, so the stage and its job fail;
     * stage 1 (job 1, running beside it) is cancelled when the SparkContext shuts down.
     */
    public static AppSnapshot failingStageCancelsOthers(String appId, String name, String user, long start) {
        Recorder r = new Recorder(RecorderOptions.DEFAULTS);
        r.onEvent(new SparkEvent.ApplicationStart(name, appId, null, start, user));
        Map<String, String> conf = new HashMap<>();
        conf.put("spark.master", "yarn");
        conf.put("spark.app.name", name);
        conf.put("spark.executor.memory", "4g");
        conf.put("spark.executor.cores", "2");
        r.onEvent(new SparkEvent.EnvironmentUpdate(conf, Map.of(), Map.of("sun.java.command",
                "org.apache.spark.deploy.SparkSubmit --master yarn --class com.example.Sessions sessions.jar"),
                Map.of()));
        r.onEvent(new SparkEvent.ExecutorAdded(start, "1", "host-a", 2));
        r.onEvent(new SparkEvent.ExecutorAdded(start, "2", "host-b", 2));
        long t0 = start + 1_000;
        r.onEvent(new SparkEvent.JobStart(0, t0, List.of(0), List.of(sessionsStage(0, t0, -1, null)), Map.of()));
        r.onEvent(new SparkEvent.JobStart(1, t0, List.of(1), List.of(sessionsStage(1, t0, -1, null)), Map.of()));
        r.onEvent(new SparkEvent.StageSubmitted(sessionsStage(0, t0, -1, null)));
        r.onEvent(new SparkEvent.StageSubmitted(sessionsStage(1, t0, -1, null)));
        long tid = 0;
        for (int index = 0; index < 8; index++) {
            if (index == 3) {
                continue;
            }
            r.onEvent(sessionsTaskEnd(0, tid++, index, 0, index % 2 == 0 ? "1" : "2", t0, t0 + 20_000, null));
        }
        long at = t0;
        for (int attempt = 0; attempt < 4; attempt++) {
            String error = String.format(OOM, 67_108_864 + attempt * 1024, 1_048_576 * (attempt + 1),
                    0x123456 + attempt * 7919, 200 + attempt);
            r.onEvent(sessionsTaskEnd(0, tid++, 3, attempt, attempt % 2 == 0 ? "2" : "1", at, at + 30_000, error));
            at += 31_000;
        }
        String reason = "Job aborted due to stage failure: Task 3 in stage 0.0 failed 4 times, most recent failure:"
                + " Lost task 3.3 in stage 0.0 (TID 10) (host-a executor 1): "
                + String.format(OOM, 67_111_936, 4_194_304, 0x12f8c1, 203);
        r.onEvent(new SparkEvent.StageCompleted(sessionsStage(0, t0, at, reason)));
        r.onEvent(new SparkEvent.JobEnd(0, at, false, reason));
        // stage 1 ran 6 of its tasks, then the application stopped
        for (int index = 0; index < 6; index++) {
            r.onEvent(sessionsTaskEnd(1, tid++, index, 0, index % 2 == 0 ? "1" : "2", t0, t0 + 40_000, null));
        }
        String shutDown = "Stage cancelled because SparkContext was shut down";
        r.onEvent(new SparkEvent.StageCompleted(new StageInfo(1, 0, "count at Sessions.scala:88", 12, List.of(),
                "details", t0, at + 500, shutDown, List.of())));
        r.onEvent(new SparkEvent.JobEnd(1, at + 500, false, "Job 1 cancelled because SparkContext was shut down"));
        r.onEvent(new SparkEvent.ApplicationEnd(at + 1_000));
        return r.snapshot();
    }

    private static StageInfo sessionsStage(int id, long submitted, long completed, String failure) {
        return new StageInfo(id, 0, id == 0 ? "sortBy at Sessions.scala:41" : "count at Sessions.scala:88",
                id == 0 ? 8 : 12, List.of(), "details", submitted, completed, failure, List.of());
    }

    private static SparkEvent.TaskEnd sessionsTaskEnd(int stage, long taskId, int index, int attempt, String executor,
                                                      long launch, long finish, String error) {
        TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, finish - launch - 200)
                .set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, 100).set(TaskMetric.JVM_GC_TIME, 500).build();
        TaskEndReason reason = error == null ? TaskEndReason.SUCCESS
                : new TaskEndReason("ExceptionFailure", error.substring(0, error.indexOf('\n')), error);
        return new SparkEvent.TaskEnd(stage, 0, "ShuffleMapTask", reason, new TaskInfo(taskId, index, attempt, index,
                launch, executor, executor.equals("1") ? "host-a" : "host-b", "PROCESS_LOCAL", false, 0, finish,
                error != null, false), m);
    }

    // ---- the store's application: every kind of row, hostile strings ----

    /**
     * A running or complete application: 3 stage attempts (one failed and retried, one with no successful task, so
     * no distribution), kept tasks with and without metrics, executors, config with nasty strings, SQL with a plan tree.
     */
    public static AppSnapshot rich(String appId, String attemptId, boolean complete) {
        long t0 = RICH_START;
        Map<String, String> spark = new LinkedHashMap<>(NASTY_CONFIG);
        spark.put("spark.app.name", "rich <script>alert(1)</script>");
        spark.put("spark.executor.memory", "4g");
        AppConfig config = new AppConfig(spark, Map.of("Java Version", "17.0.12 (Eclipse Adoptium)"),
                Map.of("user.dir", "/home/ünïcode"), Map.of("fs.defaultFS", "file:///"));

        List<ExecutorSummary> executors = List.of(
                ExecutorSummary.builder().executorId("driver").host("10.0.0.1").addTime(t0).maxMemory(500_000_000L)
                        .peakMetrics(Map.of("JVMHeapMemory", 123_456_789L)).build(),
                ExecutorSummary.builder().executorId("1").host("worker-1").totalCores(4).addTime(t0 + 1000)
                        .removeTime(complete ? t0 + 60_000 : -1)
                        .removeReason(complete ? "Executor killed by driver" : null).maxMemory(2_000_000_000L)
                        .completedTasks(10).failedTasks(2).killedTasks(1).totalDuration(50_000).totalRunTime(45_000)
                        .totalCpuTimeNs(40_000_000_000L).totalGcTime(3_000).inputBytes(1 << 20)
                        .shuffleReadBytes(2 << 20).shuffleWriteBytes(3 << 20).memoryBytesSpilled(4 << 20)
                        .diskBytesSpilled(5 << 20)
                        .peakMetrics(Map.of("JVMHeapMemory", 1_000_000_000L, "TotalGCTime", 3_000L)).build());

        List<StageSummary> stages = new ArrayList<>();
        stages.add(richStage(0, 0, StageSummary.StageStatus.COMPLETE, 8, 0, true, 1));
        stages.add(richStage(1, 0, StageSummary.StageStatus.FAILED, 4, 2, true, 2));
        stages.add(complete
                ? richStage(1, 1, StageSummary.StageStatus.COMPLETE, 4, 0, true, 3)
                : richStage(1, 1, StageSummary.StageStatus.ACTIVE, 4, 0, false, 3));

        List<JobSummary> jobs = List.of(
                JobSummary.builder().name("count at Rich.java:12").description("count").submissionTime(t0 + 2000)
                        .completionTime(t0 + 9000).status(JobSummary.JobStatus.SUCCEEDED).stageIds(List.of(0))
                        .sqlExecutionId(0).numTasks(8).numCompletedTasks(8).build(),
                JobSummary.builder().jobId(1).name("save at Rich.java:20").jobGroup("group-ü")
                        .submissionTime(t0 + 10_000).completionTime(complete ? t0 + 50_000 : -1)
                        .status(complete ? JobSummary.JobStatus.FAILED : JobSummary.JobStatus.RUNNING)
                        .failureReason(complete ? "Job aborted due to stage failure: \"boom\"" : null)
                        .stageIds(List.of(1)).sqlExecutionId(0).numTasks(8).numCompletedTasks(4).numFailedTasks(2)
                        .build());

        PlanNode scan = new PlanNode("Scan parquet", "FileScan parquet [a#1] Batched: true", List.of(),
                List.of(new PlanMetric("number of files read", 101, "sum"), new PlanMetric("size of files read", 102, "size")));
        PlanNode exchange = new PlanNode("Exchange", "Exchange hashpartitioning(a#1, 200)", List.of(scan),
                List.of(new PlanMetric("shuffle bytes written", 103, "size")));
        PlanNode root = new PlanNode("AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true",
                List.of(new PlanNode("HashAggregate", "HashAggregate(keys=[a#1], functions=[count(1)])",
                        List.of(exchange), List.of())), List.of());
        List<SqlExecutionSummary> sql = List.of(
                SqlExecutionSummary.builder().executionId(0).description("count at Rich.java:12")
                        .startTime(t0 + 1900).endTime(t0 + 9100)
                        .physicalPlanDescription("== Physical Plan ==\nAdaptiveSparkPlan (1)\n+- 'quoted' \"plan\"")
                        .plan(root).jobIds(List.of(0)).metricValues(Map.of(101L, 3L, 102L, 4096L, 103L, 123_456L))
                        // per-task aggregates: a sum, a size with its statistics, one the driver reported (max from
                        // the driver), and one no drawn node declares (kept under node -1)
                        .metrics(Map.of(
                                101L, new SqlMetricAggregate(101, "sum", 3, 2, 1, 2, 1, 2, 0, 0, 7, 2, true,
                                        List.of(0)),
                                103L, new SqlMetricAggregate(103, "size", 123_456, 4, 0, 30_000, 20_000, 70_000, 0, 1,
                                        12, 3, false, List.of(0)),
                                102L, new SqlMetricAggregate(102, "size", 4096, 1, 4096, 4096, 4096, 4096, -1, -1, -1,
                                        1, true, List.of()),
                                999L, new SqlMetricAggregate(999, "timing", 5, 1, 5, 5, 5, 5, 0, 0, 3, 1, true,
                                        List.of(0))))
                        .stageIds(List.of(0)).build(),
                SqlExecutionSummary.builder().executionId(1).description("save").startTime(t0 + 9900)
                        .endTime(complete ? t0 + 50_100 : -1)
                        .errorMessage(complete ? "org.apache.spark.SparkException: boom" : null).jobIds(List.of(1))
                        .build());

        long end = complete ? t0 + 60_000 : -1;
        return AppSnapshot.builder().appId(appId).attemptId(attemptId).appName("rich app ü").sparkUser("alice")
                .sparkVersion("4.0.4").startTime(t0).endTime(end).lastEventTime(t0 + (complete ? 60_000 : 30_000))
                .complete(complete).config(config).executors(executors).jobs(jobs).stages(stages).sqlExecutions(sql)
                .driverGcTimeMs(complete ? 1_234 : -1).driverMaxMemory(500_000_000L).eventCount(complete ? 500 : 300)
                .unknownEventTypes(complete ? Map.of("SparkListenerBlockUpdated", 7L) : Map.of()).build();
    }

    /**
     * One stage attempt of {@link #rich}: {@code failed} of its {@code tasks} kept tasks failed (every other one
     * without metrics), random metrics from {@code seed}, and recorder counts none of which the kept tasks alone give.
     */
    public static StageSummary richStage(int id, int attempt, StageSummary.StageStatus status, int tasks, int failed,
                                         boolean withSummary, long seed) {
        long t0 = RICH_START;
        Random r = new Random(seed);
        List<TaskRecord> kept = new ArrayList<>();
        long[] sums = new long[TaskMetric.count()];
        for (int i = 0; i < tasks; i++) {
            boolean fail = i < failed;
            // Failed tasks sometimes carry no metrics at all (Spark: some failures report none).
            TaskMetrics m = fail && i % 2 == 0 ? null : randomMetrics(r);
            if (m != null) {
                StageTotals.accumulate(sums, m);
            }
            long launch = t0 + 10_000 + i * 10L;
            kept.add(TaskRecord.builder().taskId(id * 1000L + attempt * 100 + i).index(i).attempt(attempt)
                    .partitionId(i).executorId("1").host("worker-1")
                    .locality(i % 2 == 0 ? "PROCESS_LOCAL" : "NODE_LOCAL").speculative(i == 3).launchTime(launch)
                    .finishTime(launch + 100 + r.nextInt(5000)).gettingResultTime(i == 1 ? launch + 50 : 0)
                    .status(fail ? "FAILED" : "SUCCESS").endReason(fail ? "ExceptionFailure" : "Success")
                    .errorMessage(fail ? "java.lang.RuntimeException: it's \"bad\"\n\tat Foo.bar(Foo.java:1)" : null)
                    .metrics(m).build());
        }
        TaskDistributions dist = withSummary ? randomDistributions(r, tasks - failed) : null;
        boolean ended = status == StageSummary.StageStatus.COMPLETE || status == StageSummary.StageStatus.FAILED;
        // Stage 0 stands for a big stage past the recorder's cap (kept: a sample of 50× as many tasks); stage 1.1
        // for a row written before V4 (no task-time sums, detail derived from the counts).
        boolean sampled = id == 0;
        int complete = sampled ? 50 * tasks : tasks - failed;
        TaskTimeSums times = id == 1 && attempt == 1 ? null
                : new TaskTimeSums(1_000_000L + r.nextInt(1000), 12_345 + r.nextInt(1000), r.nextInt(1000));
        return StageSummary.builder().stageId(id).attemptId(attempt).name("stage " + id + " at Rich.java:" + id)
                .details("org.apache.spark.rdd.RDD.count(RDD.scala:1)\n…").status(status)
                .numTasks(sampled ? complete : tasks).numActiveTasks(status == StageSummary.StageStatus.ACTIVE ? 2 : 0)
                .numCompleteTasks(complete).numFailedTasks(failed).numCompletedIndices(complete)
                .submissionTime(t0 + 10_000).completionTime(ended ? t0 + 20_000 : -1)
                .firstTaskLaunchedTime(t0 + 10_000).lastTaskFinishedTime(t0 + 15_000)
                .failureReason(status == StageSummary.StageStatus.FAILED
                        ? "FetchFailed(…) '; DROP TABLE stage_attempt; --" : null)
                .parentIds(id == 0 ? List.of() : List.of(0)).jobIds(List.of(id == 0 ? 0 : 1))
                .totals(StageTotals.of(sums)).taskSummary(dist).keptTasks(kept)
                .endReasons(failed > 0 ? Map.of("ExceptionFailure", failed) : Map.of())
                .taskDetail(sampled ? StageSummary.TaskDetail.SAMPLED : StageSummary.TaskDetail.ALL).taskTimes(times)
                // the recorder's own counts, none of them what the kept tasks alone would give
                .numDistinctEndedTasks(complete + failed).numSpeculativeTasks(2 + id)
                .numDuplicateTaskEnds(1 + attempt).numTasksWithUnknownTimes(id).build();
    }

    /** Random task metrics, about a third of them zero, the CPU time above 2^31. */
    public static TaskMetrics randomMetrics(Random r) {
        TaskMetrics.Builder b = TaskMetrics.builder();
        for (TaskMetric m : TaskMetric.values()) {
            // About a third of the metrics are zero, as in real tasks (no spill, no input, …).
            if (r.nextInt(3) != 0) {
                b.set(m, r.nextInt(1_000_000));
            }
        }
        b.set(TaskMetric.EXECUTOR_CPU_TIME, 1_234_567_890_123L); // > 2^31: must stay a long
        return b.build();
    }

    /** Random, rising quantiles with fractions for every distribution metric. */
    public static TaskDistributions randomDistributions(Random r, long count) {
        double[] q = TaskDistributions.STANDARD_QUANTILES;
        double[][] v = new double[DistributionMetric.count()][q.length];
        for (double[] row : v) {
            double x = 0;
            for (int i = 0; i < row.length; i++) {
                x += r.nextInt(1000) + r.nextDouble(); // exact doubles with fractions must round-trip
                row[i] = x;
            }
        }
        return new TaskDistributions(count, q, v);
    }

    /** A big completed app for the bench: {@code stages} stages sharing {@code tasks} kept tasks, all with metrics. */
    public static AppSnapshot big(String appId, int stages, int tasks) {
        Random r = new Random(42);
        List<StageSummary> list = new ArrayList<>();
        int perStage = tasks / stages;
        for (int s = 0; s < stages; s++) {
            StageSummary proto = richStage(s, 0, StageSummary.StageStatus.COMPLETE, 0, 0, true, s);
            List<TaskRecord> kept = new ArrayList<>(perStage);
            for (int i = 0; i < perStage; i++) {
                long launch = RICH_START + i;
                kept.add(TaskRecord.builder().taskId((long) s * perStage + i).index(i).partitionId(i)
                        .executorId(String.valueOf(1 + i % 16)).host("worker-" + (i % 16)).locality("PROCESS_LOCAL")
                        .launchTime(launch).finishTime(launch + 100 + r.nextInt(1000)).status("SUCCESS")
                        .endReason("Success").metrics(randomMetrics(r)).build());
            }
            list.add(StageSummary.builder().stageId(s).name(proto.name()).details(proto.details())
                    .status(proto.status()).numTasks(perStage).numCompleteTasks(perStage).numCompletedIndices(perStage)
                    .submissionTime(proto.submissionTime()).completionTime(proto.completionTime())
                    .firstTaskLaunchedTime(proto.firstTaskLaunchedTime())
                    .lastTaskFinishedTime(proto.lastTaskFinishedTime()).parentIds(proto.parentIds())
                    .jobIds(proto.jobIds()).totals(proto.totals()).taskSummary(proto.taskSummary()).keptTasks(kept)
                    .build());
        }
        AppSnapshot base = rich(appId, null, true);
        return AppSnapshot.builder().appId(appId).appName("big app").sparkUser("bench").sparkVersion("4.0.4")
                .startTime(RICH_START).endTime(RICH_START + 600_000).lastEventTime(RICH_START + 600_000).complete(true)
                .config(base.config()).executors(base.executors()).jobs(base.jobs()).stages(list)
                .sqlExecutions(base.sqlExecutions()).driverGcTimeMs(0).driverMaxMemory(0).eventCount(1_000_000)
                .build();
    }

    // ---- synthetic applications: seeded random task times, for the web tests and the latency bench ----

    /**
     * What {@link #synthetic} builds.
     *
     * @param complete        false = no ApplicationEnd; lastEventTime = start + duration
     * @param failureReason   non-null: the last stage failed with this reason
     * @param spillPerTask    memory bytes spilled per task (0 = none)
     */
    public record SyntheticSpec(String appId, String attemptId, String name, String user, long start, long durationMs,
                                boolean complete, Map<String, String> conf, int jobs, int stagesPerJob,
                                int tasksPerStage, String failureReason, long spillPerTask, long seed) {
        public SyntheticSpec withConf(String key, String value) {
            Map<String, String> c = new LinkedHashMap<>(conf);
            c.put(key, value);
            return new SyntheticSpec(appId, attemptId, name, user, start, durationMs, complete, c, jobs, stagesPerJob,
                    tasksPerStage, failureReason, spillPerTask, seed);
        }
    }

    /** A complete local application of 2 jobs of 2 stages of 10 tasks, its seed from the id. */
    public static SyntheticSpec syntheticSpec(String appId, String name, String user, long start, long durationMs) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.app.name", name);
        conf.put("spark.master", "local[4]");
        conf.put("spark.executor.memory", "4g");
        conf.put("spark.executor.cores", "4");
        conf.put("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
        conf.put("spark.sql.shuffle.partitions", "200");
        return new SyntheticSpec(appId, null, name, user, start, durationMs, true, conf, 2, 2, 10, null, 0,
                appId.hashCode());
    }

    /**
     * Jobs of stages with kept tasks whose metrics, totals and quantiles agree with each other, so the heuristics
     * (run by the caller) produce real findings.
     */
    public static AppSnapshot synthetic(SyntheticSpec s) {
        Random r = new Random(s.seed());
        int totalStages = s.jobs() * s.stagesPerJob();
        long stageSpan = Math.max(1, s.durationMs() / (totalStages + 1));
        List<StageSummary> stages = new ArrayList<>();
        List<JobSummary> jobs = new ArrayList<>();
        long execTaskTime = 0;
        long execRun = 0;
        long execGc = 0;
        int stageId = 0;
        for (int j = 0; j < s.jobs(); j++) {
            List<Integer> ids = new ArrayList<>();
            long jobStart = s.start() + 500 + (long) j * s.stagesPerJob() * stageSpan;
            boolean jobFailed = false;
            for (int k = 0; k < s.stagesPerJob(); k++) {
                boolean failed = s.failureReason() != null && j == s.jobs() - 1 && k == s.stagesPerJob() - 1;
                long st = jobStart + (long) k * stageSpan;
                StageSummary stage = syntheticStage(stageId, j, st, stageSpan, s.tasksPerStage(),
                        failed ? s.failureReason() : null, s.spillPerTask(), r);
                stages.add(stage);
                for (TaskRecord t : stage.keptTasks()) {
                    execTaskTime += t.finishTime() - t.launchTime();
                    if (t.metrics() != null) {
                        execRun += t.metrics().get(TaskMetric.EXECUTOR_RUN_TIME);
                        execGc += t.metrics().get(TaskMetric.JVM_GC_TIME);
                    }
                }
                ids.add(stageId++);
                jobFailed |= failed;
            }
            long jobEnd = jobStart + (long) s.stagesPerJob() * stageSpan;
            jobs.add(JobSummary.builder().jobId(j).name("job " + j + " at Main.scala:" + (10 + j))
                    .submissionTime(jobStart).completionTime(jobEnd)
                    .status(jobFailed ? JobSummary.JobStatus.FAILED : JobSummary.JobStatus.SUCCEEDED)
                    .failureReason(jobFailed ? "Job aborted due to stage failure: " + s.failureReason() : null)
                    .stageIds(ids).numTasks(s.stagesPerJob() * s.tasksPerStage())
                    .numCompletedTasks(s.stagesPerJob() * s.tasksPerStage()).build());
        }
        long end = s.start() + s.durationMs();
        List<ExecutorSummary> executors = List.of(
                ExecutorSummary.builder().executorId("driver").host("localhost").totalCores(4).addTime(s.start())
                        .maxMemory(2L << 30).completedTasks(s.stagesPerJob() * s.jobs() * s.tasksPerStage())
                        .totalDuration(execTaskTime).totalRunTime(execRun).totalCpuTimeNs(execRun * 900_000L)
                        .totalGcTime(execGc).build());
        // A "sun.java.command" entry stands for the driver's command line, which Spark reports as a system property.
        Map<String, String> spark = new LinkedHashMap<>(s.conf());
        Map<String, String> system = new LinkedHashMap<>(Map.of("user.name", s.user()));
        String command = spark.remove("sun.java.command");
        if (command != null) {
            system.put("sun.java.command", command);
        }
        AppConfig config = new AppConfig(spark, Map.of("Java Version", "17.0.12"), system,
                Map.of("fs.defaultFS", "file:///"));
        return AppSnapshot.builder().appId(s.appId()).attemptId(s.attemptId()).appName(s.name()).sparkUser(s.user())
                .sparkVersion("4.0.4").startTime(s.start()).endTime(s.complete() ? end : -1).lastEventTime(end)
                .complete(s.complete()).config(config).executors(executors).jobs(jobs).stages(stages)
                .driverMaxMemory(1L << 30).eventCount(1000 + totalStages * (long) s.tasksPerStage() * 2).build();
    }

    /** The same run on {@code executors} executors of {@code cores} cores, alive the whole run, instead of local mode. */
    public static AppSnapshot onCluster(AppSnapshot s, int executors, int cores) {
        List<ExecutorSummary> list = new ArrayList<>();
        list.add(ExecutorSummary.builder().executorId("driver").host("driver-host").addTime(s.startTime())
                .maxMemory(1L << 30).build());
        ExecutorSummary local = s.executors().get(0);
        for (int i = 1; i <= executors; i++) {
            list.add(ExecutorSummary.builder().executorId(String.valueOf(i)).host("worker-" + i).totalCores(cores)
                    .addTime(s.startTime()).maxMemory(4L << 30).completedTasks(local.completedTasks() / executors)
                    .totalDuration(local.totalDuration() / executors).totalRunTime(local.totalRunTime() / executors)
                    .totalCpuTimeNs(local.totalCpuTimeNs() / executors).totalGcTime(local.totalGcTime() / executors)
                    .build());
        }
        Map<String, String> conf = new LinkedHashMap<>(s.config().sparkProperties());
        conf.put("spark.master", "yarn");
        conf.put("spark.executor.cores", String.valueOf(cores));
        conf.put("spark.yarn.queue", "etl");
        var config = new AppConfig(conf, s.config().jvmInformation(),
                s.config().systemProperties(), s.config().hadoopProperties());
        return copy(s).config(config).executors(list).build();
    }

    private static StageSummary syntheticStage(int id, int job, long start, long span, int tasks, String failure,
                                               long spill, Random r) {
        List<TaskRecord> kept = new ArrayList<>();
        long[] sums = new long[TaskMetric.count()];
        long[][] perMetric = SparkQuantiles.rows(tasks);
        int failedTasks = failure == null ? 0 : Math.max(1, tasks / 5);
        int ok = 0;
        for (int i = 0; i < tasks; i++) {
            boolean fail = i < failedTasks;
            long run = 200 + r.nextInt(Math.max(1, (int) Math.min(span / 2, 50_000)));
            long gc = run / 20;
            long launch = start + 10 + r.nextInt(50);
            long finish = launch + run + 30;
            TaskMetrics.Builder b = TaskMetrics.builder();
            b.set(TaskMetric.EXECUTOR_RUN_TIME, run);
            b.set(TaskMetric.EXECUTOR_CPU_TIME, run * 800_000L);
            b.set(TaskMetric.JVM_GC_TIME, gc);
            b.set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, 10);
            b.set(TaskMetric.RESULT_SERIALIZATION_TIME, 1);
            b.set(TaskMetric.INPUT_BYTES, 1_000_000L + r.nextInt(1_000_000));
            b.set(TaskMetric.SHUFFLE_BYTES_WRITTEN, 500_000L);
            b.set(TaskMetric.SHUFFLE_LOCAL_BYTES_READ, id > 0 ? 400_000L : 0);
            b.set(TaskMetric.MEMORY_BYTES_SPILLED, spill);
            b.set(TaskMetric.DISK_BYTES_SPILLED, spill / 3);
            TaskMetrics m = b.build();
            StageTotals.accumulate(sums, m);
            kept.add(TaskRecord.builder().taskId(id * 100_000L + i).index(i).partitionId(i).executorId("driver")
                    .host("localhost").locality("PROCESS_LOCAL").launchTime(launch).finishTime(finish)
                    .status(fail ? "FAILED" : "SUCCESS").endReason(fail ? "ExceptionFailure" : "Success")
                    .errorMessage(fail ? "java.lang.RuntimeException: " + failure : null).metrics(m).build());
            if (!fail) {
                perMetric[DistributionMetric.DURATION.ordinal()][ok] = finish - launch;
                perMetric[DistributionMetric.EXECUTOR_RUN_TIME.ordinal()][ok] = run;
                perMetric[DistributionMetric.EXECUTOR_CPU_TIME.ordinal()][ok] = run * 800_000L;
                perMetric[DistributionMetric.JVM_GC_TIME.ordinal()][ok] = gc;
                perMetric[DistributionMetric.EXECUTOR_DESERIALIZE_TIME.ordinal()][ok] = 10;
                perMetric[DistributionMetric.RESULT_SERIALIZATION_TIME.ordinal()][ok] = 1;
                perMetric[DistributionMetric.SCHEDULER_DELAY.ordinal()][ok] = 19;
                perMetric[DistributionMetric.INPUT_BYTES_READ.ordinal()][ok] = m.get(TaskMetric.INPUT_BYTES);
                perMetric[DistributionMetric.SHUFFLE_WRITE_BYTES.ordinal()][ok] = 500_000L;
                perMetric[DistributionMetric.SHUFFLE_READ_BYTES.ordinal()][ok] = id > 0 ? 400_000L : 0;
                perMetric[DistributionMetric.MEMORY_BYTES_SPILLED.ordinal()][ok] = spill;
                perMetric[DistributionMetric.DISK_BYTES_SPILLED.ordinal()][ok] = spill / 3;
                ok++;
            }
        }
        StageSummary.StageStatus status = failure == null ? StageSummary.StageStatus.COMPLETE
                : StageSummary.StageStatus.FAILED;
        return StageSummary.builder().stageId(id)
                .name((id % 2 == 0 ? "map at Job.scala:" : "save at Job.scala:") + (20 + id)).details("details")
                .status(status).numTasks(tasks).numCompleteTasks(tasks - failedTasks).numFailedTasks(failedTasks)
                .numCompletedIndices(tasks - failedTasks).submissionTime(start).completionTime(start + span)
                .firstTaskLaunchedTime(start + 10).lastTaskFinishedTime(start + span - 5).failureReason(failure)
                .parentIds(id == 0 ? List.of() : List.of(id - 1)).jobIds(List.of(job)).totals(StageTotals.of(sums))
                .taskSummary(SparkQuantiles.of(perMetric, ok)).keptTasks(kept)
                .endReasons(failedTasks > 0 ? Map.of("ExceptionFailure", failedTasks) : Map.of()).build();
    }
}
