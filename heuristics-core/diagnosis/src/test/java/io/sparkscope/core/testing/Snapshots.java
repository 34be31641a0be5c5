package io.sparkscope.core.testing;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Hand-built snapshots for store tests: small and rich, or big (bench). */
public final class Snapshots {
    public static final long T0 = 1_764_400_000_000L;

    private Snapshots() {
    }

    public static final Map<String, String> NASTY_CONFIG = Map.of(
            "spark.app.note", "it's \"quoted\" '; DROP TABLE application; --",
            "spark.unicode", "Grüße 日本語 🚀 \\ backslash \t tab\nnewline",
            "spark.empty", "",
            "spark.json.like", "{\"a\": [1, 2]}",
            "spark.percent", "100% _under_");

    /**
     * A running or complete application: 3 stage attempts (one failed and retried, one with no successful task, so
     * no distribution), kept tasks with and without metrics, executors, config with nasty strings, SQL with a plan tree.
     */
    public static AppSnapshot rich(String appId, String attemptId, boolean complete) {
        Map<String, String> spark = new LinkedHashMap<>(NASTY_CONFIG);
        spark.put("spark.app.name", "rich <script>alert(1)</script>");
        spark.put("spark.executor.memory", "4g");
        AppConfig config = new AppConfig(spark, Map.of("Java Version", "17.0.12 (Eclipse Adoptium)"),
                Map.of("user.dir", "/home/ünïcode"), Map.of("fs.defaultFS", "file:///"));

        List<ExecutorSummary> executors = List.of(
                ExecutorSummary.builder().executorId("driver").host("10.0.0.1").addTime(T0).maxMemory(500_000_000L)
                        .peakMetrics(Map.of("JVMHeapMemory", 123_456_789L)).build(),
                ExecutorSummary.builder().executorId("1").host("worker-1").totalCores(4).addTime(T0 + 1000)
                        .removeTime(complete ? T0 + 60_000 : -1)
                        .removeReason(complete ? "Executor killed by driver" : null).maxMemory(2_000_000_000L)
                        .completedTasks(10).failedTasks(2).killedTasks(1).totalDuration(50_000).totalRunTime(45_000)
                        .totalCpuTimeNs(40_000_000_000L).totalGcTime(3_000).inputBytes(1 << 20)
                        .shuffleReadBytes(2 << 20).shuffleWriteBytes(3 << 20).memoryBytesSpilled(4 << 20)
                        .diskBytesSpilled(5 << 20)
                        .peakMetrics(Map.of("JVMHeapMemory", 1_000_000_000L, "TotalGCTime", 3_000L)).build());

        List<StageSummary> stages = new ArrayList<>();
        stages.add(stage(0, 0, StageSummary.StageStatus.COMPLETE, 8, 0, true, 1));
        stages.add(stage(1, 0, StageSummary.StageStatus.FAILED, 4, 2, true, 2));
        stages.add(complete
                ? stage(1, 1, StageSummary.StageStatus.COMPLETE, 4, 0, true, 3)
                : stage(1, 1, StageSummary.StageStatus.ACTIVE, 4, 0, false, 3));

        List<JobSummary> jobs = List.of(
                JobSummary.builder().name("count at Rich.java:12").description("count").submissionTime(T0 + 2000)
                        .completionTime(T0 + 9000).status(JobSummary.JobStatus.SUCCEEDED).stageIds(List.of(0))
                        .sqlExecutionId(0).numTasks(8).numCompletedTasks(8).build(),
                JobSummary.builder().jobId(1).name("save at Rich.java:20").jobGroup("group-ü")
                        .submissionTime(T0 + 10_000).completionTime(complete ? T0 + 50_000 : -1)
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
                        .startTime(T0 + 1900).endTime(T0 + 9100)
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
                SqlExecutionSummary.builder().executionId(1).description("save").startTime(T0 + 9900)
                        .endTime(complete ? T0 + 50_100 : -1)
                        .errorMessage(complete ? "org.apache.spark.SparkException: boom" : null).jobIds(List.of(1))
                        .build());

        long end = complete ? T0 + 60_000 : -1;
        return AppSnapshot.builder().appId(appId).attemptId(attemptId).appName("rich app ü").sparkUser("alice")
                .sparkVersion("4.0.4").startTime(T0).endTime(end).lastEventTime(T0 + (complete ? 60_000 : 30_000))
                .complete(complete).config(config).executors(executors).jobs(jobs).stages(stages).sqlExecutions(sql)
                .driverGcTimeMs(complete ? 1_234 : -1).driverMaxMemory(500_000_000L).eventCount(complete ? 500 : 300)
                .unknownEventTypes(complete ? Map.of("SparkListenerBlockUpdated", 7L) : Map.of()).build();
    }

    public static StageSummary stage(int id, int attempt, StageSummary.StageStatus status, int tasks, int failed,
                              boolean withSummary, long seed) {
        Random r = new Random(seed);
        List<TaskRecord> kept = new ArrayList<>();
        long[] sums = new long[TaskMetric.count()];
        for (int i = 0; i < tasks; i++) {
            boolean fail = i < failed;
            // Failed tasks sometimes carry no metrics at all (Spark: some failures report none).
            TaskMetrics m = fail && i % 2 == 0 ? null : metrics(r);
            if (m != null) {
                for (TaskMetric tm : TaskMetric.values()) {
                    sums[tm.ordinal()] += m.get(tm);
                }
            }
            long launch = T0 + 10_000 + i * 10L;
            kept.add(TaskRecord.builder().taskId(id * 1000L + attempt * 100 + i).index(i).attempt(attempt)
                    .partitionId(i).executorId("1").host("worker-1")
                    .locality(i % 2 == 0 ? "PROCESS_LOCAL" : "NODE_LOCAL").speculative(i == 3).launchTime(launch)
                    .finishTime(launch + 100 + r.nextInt(5000)).gettingResultTime(i == 1 ? launch + 50 : 0)
                    .status(fail ? "FAILED" : "SUCCESS").endReason(fail ? "ExceptionFailure" : "Success")
                    .errorMessage(fail ? "java.lang.RuntimeException: it's \"bad\"\n\tat Foo.bar(Foo.java:1)" : null)
                    .metrics(m).build());
        }
        TaskDistributions dist = withSummary ? distributions(r, tasks - failed) : null;
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
                .submissionTime(T0 + 10_000).completionTime(ended ? T0 + 20_000 : -1)
                .firstTaskLaunchedTime(T0 + 10_000).lastTaskFinishedTime(T0 + 15_000)
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

    public static TaskMetrics metrics(Random r) {
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

    public static TaskDistributions distributions(Random r, long count) {
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

    public static List<Finding> findings() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("ratio", 10.5);
        details.put("median", 1200);
        details.put("note", "it's \"x\"");
        details.put("per stage", Map.of("1.1", List.of(1, 2.5, 3_000_000_000L)));
        List<SettingAdvice> advice = List.of(new SettingAdvice("spark.sql.shuffle.partitions", "200",
                SettingAdvice.ValueSource.DEFAULT, "800", List.of("stage 1 is skewed", "it's \"quoted\" ü")),
                new SettingAdvice("spark.executor.memory", "4g", SettingAdvice.ValueSource.SET, "6g", List.of()));
        return List.of(
                new Finding("skew:1.1", "skew", Severity.HIGH, "Skewed stage 1", "max task 10× median",
                        "Repartition or salt the key", List.of("1.1"), List.of("1"), List.of("spark.sql.shuffle.partitions"),
                        details, new Impact(3_000_000_000L, 45_000, "slowest task − median task"), null, advice),
                new Finding("gc:app", "gc", Severity.LOW, "GC pressure", "GC is 12% of task time",
                        "Raise spark.executor.memory", List.of(), List.of("1"), List.of("spark.executor.memory"), null,
                        Impact.NONE, "skew:1.1", List.of()));
    }

    /** A big completed app for the bench: {@code stages} stages sharing {@code tasks} kept tasks, all with metrics. */
    public static AppSnapshot big(String appId, int stages, int tasks) {
        Random r = new Random(42);
        List<StageSummary> list = new ArrayList<>();
        int perStage = tasks / stages;
        for (int s = 0; s < stages; s++) {
            StageSummary proto = stage(s, 0, StageSummary.StageStatus.COMPLETE, 0, 0, true, s);
            List<TaskRecord> kept = new ArrayList<>(perStage);
            for (int i = 0; i < perStage; i++) {
                long launch = T0 + i;
                kept.add(TaskRecord.builder().taskId((long) s * perStage + i).index(i).partitionId(i)
                        .executorId(String.valueOf(1 + i % 16)).host("worker-" + (i % 16)).locality("PROCESS_LOCAL")
                        .launchTime(launch).finishTime(launch + 100 + r.nextInt(1000)).status("SUCCESS")
                        .endReason("Success").metrics(metrics(r)).build());
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
                .startTime(T0).endTime(T0 + 600_000).lastEventTime(T0 + 600_000).complete(true).config(base.config())
                .executors(base.executors()).jobs(base.jobs()).stages(list).sqlExecutions(base.sqlExecutions())
                .driverGcTimeMs(0).driverMaxMemory(0).eventCount(1_000_000).build();
    }
}
