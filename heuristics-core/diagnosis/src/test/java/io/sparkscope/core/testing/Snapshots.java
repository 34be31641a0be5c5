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
                new ExecutorSummary("driver", "10.0.0.1", 0, T0, -1, null, 500_000_000L, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                        0, 0, Map.of("JVMHeapMemory", 123_456_789L)),
                new ExecutorSummary("1", "worker-1", 4, T0 + 1000, complete ? T0 + 60_000 : -1,
                        complete ? "Executor killed by driver" : null, 2_000_000_000L, 10, 2, 1, 50_000, 45_000,
                        40_000_000_000L, 3_000, 1 << 20, 2 << 20, 3 << 20, 4 << 20, 5 << 20,
                        Map.of("JVMHeapMemory", 1_000_000_000L, "TotalGCTime", 3_000L)));

        List<StageSummary> stages = new ArrayList<>();
        stages.add(stage(0, 0, StageSummary.StageStatus.COMPLETE, 8, 0, true, 1));
        stages.add(stage(1, 0, StageSummary.StageStatus.FAILED, 4, 2, true, 2));
        stages.add(complete
                ? stage(1, 1, StageSummary.StageStatus.COMPLETE, 4, 0, true, 3)
                : stage(1, 1, StageSummary.StageStatus.ACTIVE, 4, 0, false, 3));

        List<JobSummary> jobs = List.of(
                new JobSummary(0, "count at Rich.java:12", "count", null, T0 + 2000, T0 + 9000,
                        JobSummary.JobStatus.SUCCEEDED, null, List.of(0), 0, 8, 8, 0, 0, 0),
                new JobSummary(1, "save at Rich.java:20", null, "group-ü", T0 + 10_000, complete ? T0 + 50_000 : -1,
                        complete ? JobSummary.JobStatus.FAILED : JobSummary.JobStatus.RUNNING,
                        complete ? "Job aborted due to stage failure: \"boom\"" : null, List.of(1), 0, 8, 4, 2, 0, 0));

        PlanNode scan = new PlanNode("Scan parquet", "FileScan parquet [a#1] Batched: true", List.of(),
                List.of(new PlanMetric("number of files read", 101, "sum"), new PlanMetric("size of files read", 102, "size")));
        PlanNode exchange = new PlanNode("Exchange", "Exchange hashpartitioning(a#1, 200)", List.of(scan),
                List.of(new PlanMetric("shuffle bytes written", 103, "size")));
        PlanNode root = new PlanNode("AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true",
                List.of(new PlanNode("HashAggregate", "HashAggregate(keys=[a#1], functions=[count(1)])",
                        List.of(exchange), List.of())), List.of());
        List<SqlExecutionSummary> sql = List.of(
                new SqlExecutionSummary(0, "count at Rich.java:12", T0 + 1900, T0 + 9100, null,
                        "== Physical Plan ==\nAdaptiveSparkPlan (1)\n+- 'quoted' \"plan\"", root, List.of(0),
                        Map.of(101L, 3L, 102L, 4096L, 103L, 123_456L),
                        // per-task aggregates: a sum, a size with its statistics, one the driver reported (max from
                        // the driver), and one no drawn node declares (kept under node -1)
                        Map.of(101L, new SqlMetricAggregate(101, "sum", 3, 2, 1, 2, 1, 2, 0, 0, 7, 2, true, List.of(0)),
                                103L, new SqlMetricAggregate(103, "size", 123_456, 4, 0, 30_000, 20_000, 70_000, 0, 1, 12,
                                        3, false, List.of(0)),
                                102L, new SqlMetricAggregate(102, "size", 4096, 1, 4096, 4096, 4096, 4096, -1, -1, -1, 1,
                                        true, List.of()),
                                999L, new SqlMetricAggregate(999, "timing", 5, 1, 5, 5, 5, 5, 0, 0, 3, 1, true,
                                        List.of(0))),
                        List.of(0)),
                new SqlExecutionSummary(1, "save", T0 + 9900, complete ? T0 + 50_100 : -1,
                        complete ? "org.apache.spark.SparkException: boom" : null, null, null, List.of(1), Map.of()));

        long end = complete ? T0 + 60_000 : -1;
        return new AppSnapshot(appId, attemptId, "rich app ü", "alice", "4.0.4", T0, end, T0 + (complete ? 60_000 : 30_000),
                complete, config, executors, jobs, stages, sql, complete ? 1_234 : -1, 500_000_000L,
                complete ? 500 : 300, complete ? Map.of("SparkListenerBlockUpdated", 7L) : Map.of());
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
            kept.add(new TaskRecord(id * 1000L + attempt * 100 + i, i, attempt, i, "1", "worker-1",
                    i % 2 == 0 ? "PROCESS_LOCAL" : "NODE_LOCAL", i == 3, launch, launch + 100 + r.nextInt(5000),
                    i == 1 ? launch + 50 : 0, fail ? "FAILED" : "SUCCESS", fail ? "ExceptionFailure" : "Success",
                    fail ? "java.lang.RuntimeException: it's \"bad\"\n\tat Foo.bar(Foo.java:1)" : null, m));
        }
        TaskDistributions dist = withSummary ? distributions(r, tasks - failed) : null;
        boolean ended = status == StageSummary.StageStatus.COMPLETE || status == StageSummary.StageStatus.FAILED;
        // Stage 0 stands for a big stage past the recorder's cap (kept: a sample of 50× as many tasks); stage 1.1
        // for a row written before V4 (no task-time sums, detail derived from the counts).
        boolean sampled = id == 0;
        int complete = sampled ? 50 * tasks : tasks - failed;
        TaskTimeSums times = id == 1 && attempt == 1 ? null
                : new TaskTimeSums(1_000_000L + r.nextInt(1000), 12_345 + r.nextInt(1000), r.nextInt(1000));
        return new StageSummary(id, attempt, "stage " + id + " at Rich.java:" + id,
                "org.apache.spark.rdd.RDD.count(RDD.scala:1)\n…", status, sampled ? complete : tasks,
                status == StageSummary.StageStatus.ACTIVE ? 2 : 0, complete, failed, 0, complete,
                T0 + 10_000, ended ? T0 + 20_000 : -1, T0 + 10_000, T0 + 15_000,
                status == StageSummary.StageStatus.FAILED ? "FetchFailed(…) '; DROP TABLE stage_attempt; --" : null,
                id == 0 ? List.of() : List.of(0), List.of(id == 0 ? 0 : 1), StageTotals.of(sums), dist, kept,
                failed > 0 ? Map.of("ExceptionFailure", failed) : Map.of(),
                sampled ? StageSummary.TaskDetail.SAMPLED : StageSummary.TaskDetail.ALL, times,
                // the recorder's own counts, none of them what the kept tasks alone would give
                complete + failed, 2 + id, 1 + attempt, id);
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
                kept.add(new TaskRecord((long) s * perStage + i, i, 0, i, String.valueOf(1 + i % 16),
                        "worker-" + (i % 16), "PROCESS_LOCAL", false, launch, launch + 100 + r.nextInt(1000), 0,
                        "SUCCESS", "Success", null, metrics(r)));
            }
            list.add(new StageSummary(s, 0, proto.name(), proto.details(), proto.status(), perStage, 0, perStage, 0,
                    0, perStage, proto.submissionTime(), proto.completionTime(), proto.firstTaskLaunchedTime(),
                    proto.lastTaskFinishedTime(), null, proto.parentIds(), proto.jobIds(), proto.totals(),
                    proto.taskSummary(), kept, Map.of()));
        }
        AppSnapshot base = rich(appId, null, true);
        return new AppSnapshot(appId, null, "big app", "bench", "4.0.4", T0, T0 + 600_000, T0 + 600_000, true,
                base.config(), base.executors(), base.jobs(), list, base.sqlExecutions(), 0, 0, 1_000_000, Map.of());
    }
}
