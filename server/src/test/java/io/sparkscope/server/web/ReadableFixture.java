package io.sparkscope.server.web;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.SnapshotBuilder;

import java.util.List;
import java.util.Map;

/**
 * The applications of the readable-pages tests, in one database behind one server: two recorded runs of a query
 * Spark timed (a failed task's out-of-memory error, a task with and one without a peak, a removed executor, a
 * failed query whose operators reported nothing) and four synthetic runs of one job with per-run settings.
 */
final class ReadableFixture {
    static final String APP = "app-readable";
    /** A GPU out-of-memory error as Spark RAPIDS writes it: one line of about 700 characters, then its stack. */
    static final String OOM = "com.nvidia.spark.rapids.jni.GpuSplitAndRetryOOM: GPU OutOfMemory: could not split"
            + " inputs and retry. The current attempt: {" + "HostMemoryBuffer{address=0x7fa888753010, length=730512027,"
            + " id=5243} ".repeat(12) + "END-OF-FIRST-LINE}\n\tat com.nvidia.spark.rapids.RmmRapidsRetryIterator.split"
            + "(RmmRapidsRetryIterator.scala:468)";

    private static String base;

    private ReadableFixture() {
    }

    /** The server over the fixture's database, started by the first caller. */
    static synchronized String base() {
        if (base != null) {
            return base;
        }
        var ds = WebFixture.newDatabase();
        WebFixture.write(ds, recorded(APP, 1, 40));
        WebFixture.write(ds, recorded("app-readable-2", 2, 80));
        long start = WebFixture.NOW - 10 * WebFixture.HOUR;
        for (int i = 0; i < 4; i++) {
            var spec = SnapshotBuilder.syntheticSpec("app-run-" + i, "nightly", "ann", start + i * WebFixture.HOUR,
                    600_000L * (i + 1))
                    .withConf("spark.app.id", "app-run-" + i)
                    .withConf("spark.app.startTime", String.valueOf(start + i * WebFixture.HOUR))
                    .withConf("spark.app.submitTime", String.valueOf(start + i * WebFixture.HOUR - 5))
                    .withConf("spark.driver.port", String.valueOf(40_000 + i))
                    .withConf("spark.executorEnv.SPARK_DRIVER_POD_IP", "100.64.0." + i)
                    .withConf("spark.kubernetes.driver.label.sparkoperator.k8s.io/submission-id", "sub-" + i)
                    .withConf("spark.sql.shuffle.partitions", String.valueOf(200 * (i + 1)));
            WebFixture.write(ds, SnapshotBuilder.synthetic(spec));
        }
        base = OwnServer.over(ds).base();
        return base;
    }

    /**
     * A recorded application: executors on host-1 and host-2 (the second removed), a stage of three tasks (one
     * with a peak, one without, one failed with an OOM), a query whose codegen stage, sort and exchange Spark timed
     * ({@code scale} × their times) and a failed query whose operators reported nothing.
     */
    private static AppSnapshot recorded(String appId, int scale, long peakMb) {
        Recorder r = new Recorder(RecorderOptions.DEFAULTS);
        long t0 = WebFixture.NOW - 2 * WebFixture.HOUR;
        r.onEvent(new SparkEvent.ApplicationStart("readable", appId, null, t0, "ann"));
        r.onEvent(new SparkEvent.ExecutorAdded(t0 + 10, "1", "host-1", 2));
        r.onEvent(new SparkEvent.ExecutorAdded(t0 + 10, "2", "host-2", 2));
        PlanNode sort = new PlanNode("Sort", "Sort [k#12 ASC NULLS FIRST], false, 0, [plan_id=42]",
                List.of(new PlanNode("InputAdapter", "InputAdapter", List.of(new PlanNode("Exchange",
                        "Exchange hashpartitioning(k#12, 200), ENSURE_REQUIREMENTS, [plan_id=41]", List.of(),
                        List.of(new PlanMetric("shuffle write time", 3, "nsTiming")))), List.of())),
                List.of(new PlanMetric("sort time", 2, "timing")));
        PlanNode plan = new PlanNode("WholeStageCodegen (1)", "WholeStageCodegen (1)", List.of(sort),
                List.of(new PlanMetric("duration", 1, "timing")));
        r.onEvent(new SparkEvent.SqlExecutionStart(0, "sorted", "== Physical Plan ==", plan, t0 + 50));
        StageInfo s0 = new StageInfo(0, 0, "sorted at Job.scala:3", 3, List.of(), "details", t0 + 100, -1, null,
                List.of());
        r.onEvent(new SparkEvent.JobStart(0, t0 + 100, List.of(0), List.of(s0), Map.of("spark.sql.execution.id", "0")));
        r.onEvent(new SparkEvent.StageSubmitted(s0));
        for (int i = 0; i < 3; i++) {
            String ex = i == 0 ? "2" : "1";
            long launch = t0 + 200 + i;
            TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 100 + i)
                    .set(TaskMetric.PEAK_EXECUTION_MEMORY, i == 0 ? peakMb << 20 : 0).build();
            boolean fails = i == 2;
            TaskEndReason reason = fails ? new TaskEndReason("ExceptionFailure", OOM.substring(0, 60), OOM)
                    : TaskEndReason.SUCCESS;
            r.onEvent(new SparkEvent.TaskStart(0, 0, info(i, launch, ex, 0, false)));
            r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", reason, info(i, launch, ex, launch + 150, fails), m));
        }
        r.onEvent(new SparkEvent.StageCompleted(new StageInfo(0, 0, "sorted at Job.scala:3", 3, List.of(), "details",
                t0 + 100, t0 + 500, null, List.of())));
        r.onEvent(new SparkEvent.JobEnd(0, t0 + 500, true, null));
        r.onEvent(new SparkEvent.DriverAccumUpdates(0, List.of(new SparkEvent.AccumUpdate(1, 300L * scale),
                new SparkEvent.AccumUpdate(2, 120L * scale), new SparkEvent.AccumUpdate(3, 100_000_000L * scale))));
        r.onEvent(new SparkEvent.SqlExecutionEnd(0, t0 + 600, null));
        PlanNode failing = new PlanNode("Project", "Project [a#1]", List.of(new PlanNode("Scan parquet",
                "FileScan parquet [a#1]", List.of(), List.of(new PlanMetric("number of output rows", 11, "sum")))),
                List.of());
        r.onEvent(new SparkEvent.SqlExecutionStart(1, "fails", "== Physical Plan ==", failing, t0 + 700));
        r.onEvent(new SparkEvent.SqlExecutionEnd(1, t0 + 800, "Job aborted due to stage failure"));
        r.onEvent(new SparkEvent.ExecutorRemoved(t0 + 900, "2", "Executor lost: heartbeat timed out"));
        r.onEvent(new SparkEvent.ApplicationEnd(t0 + 1000));
        return r.snapshot();
    }

    private static TaskInfo info(long id, long launch, String executor, long finish, boolean failed) {
        return new TaskInfo(id, (int) id, 0, (int) id, launch, executor, "host-" + executor, "PROCESS_LOCAL", false,
                0, finish, failed, false);
    }

}
