package io.sparkscope.server.web;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;

import java.util.List;
import java.util.Map;

/**
 * One recorded application for the jobs, executors and task-table tests: a 250-task stage on two executors with
 * three failed attempts (an exception whose text is markup), a job that fails with a long multi-line reason, an
 * executor removed for a reason that is markup, and a stage name longer than the table shows.
 */
final class ExecutionFixture {
    static final String APP = "app-execution";
    static final String EVIL = "<script>alert(1)</script>";
    // A user's call site: Spark's own closures ($anonfun$… at CompletableFuture.java) are shown by their query instead.
    static final String LONG_NAME = "saveAsTable at NightlyOrdersAggregationJob.scala:1768 and a long tail"
            + " of call-site text that would wrap over many lines";
    static final int TASKS = 250;

    private static OwnServer server;

    private ExecutionFixture() {
    }

    static synchronized String base() {
        if (server == null) {
            var ds = WebFixture.newDatabase();
            WebFixture.write(ds, snapshotEvents());
            server = OwnServer.over(ds);
        }
        return server.base();
    }

    static WebFixture.Response get(String path) {
        return WebFixture.getAt(base(), path);
    }

    private static io.sparkscope.core.model.AppSnapshot snapshotEvents() {
        Recorder r = new Recorder(RecorderOptions.DEFAULTS);
        long t0 = WebFixture.NOW - WebFixture.HOUR;
        r.onEvent(new SparkEvent.ApplicationStart("execution " + EVIL, APP, null, t0, "eve"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "spark://m:7077"), Map.of(), Map.of(), Map.of()));
        r.onEvent(new SparkEvent.BlockManagerAdded(t0 + 1, "driver", "driver-host", 1L << 30, 40000, 1L << 30, 0));
        r.onEvent(new SparkEvent.ExecutorAdded(t0 + 10, "1", "host-a", 2));
        r.onEvent(new SparkEvent.ExecutorAdded(t0 + 10, "2", "host-b", 2));
        StageInfo s0 = new StageInfo(0, 0, LONG_NAME, TASKS, List.of(), "details", t0 + 100, -1, null, List.of());
        r.onEvent(new SparkEvent.JobStart(0, t0 + 100, List.of(0), List.of(s0),
                Map.of("spark.job.description", "nightly " + EVIL)));
        r.onEvent(new SparkEvent.StageSubmitted(s0));
        for (int i = 0; i < TASKS; i++) {
            String ex = i % 2 == 0 ? "1" : "2";
            long launch = t0 + 200 + i * 10L;
            long run = 50 + (i * 37L) % 400;
            r.onEvent(new SparkEvent.TaskStart(0, 0, info(i, i, 0, launch, ex, 0, false)));
            boolean fails = i % 100 == 7;
            TaskEndReason reason = fails ? new TaskEndReason("ExceptionFailure", "java.lang.IllegalStateException: "
                    + EVIL, "java.lang.IllegalStateException: " + EVIL + "\n\tat Job.run(Job.java:" + i + ")\n")
                    : TaskEndReason.SUCCESS;
            TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, run)
                    .set(TaskMetric.JVM_GC_TIME, i % 13).set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, 3)
                    .set(TaskMetric.SHUFFLE_BYTES_WRITTEN, 1000L * i).build();
            r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", reason, info(i, i, 0, launch, ex, launch + run + 10, fails), m));
            if (fails) {
                // its retry succeeds
                r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask", TaskEndReason.SUCCESS,
                        info(10_000 + i, i, 1, launch + 500, ex, launch + 600, false), m));
            }
        }
        StageInfo done = new StageInfo(0, 0, LONG_NAME, TASKS, List.of(), "details", t0 + 100, t0 + 5000, null, List.of());
        r.onEvent(new SparkEvent.StageCompleted(done));
        r.onEvent(new SparkEvent.JobEnd(0, t0 + 5000, true, null));
        StageInfo s1 = new StageInfo(1, 0, "collect at Report.scala:9", 2, List.of(), "details", t0 + 6000, -1, null,
                List.of());
        r.onEvent(new SparkEvent.JobStart(1, t0 + 6000, List.of(1), List.of(s1), Map.of()));
        r.onEvent(new SparkEvent.StageSubmitted(s1));
        StageInfo failed = new StageInfo(1, 0, "collect at Report.scala:9", 2, List.of(), "details", t0 + 6000,
                t0 + 7000, "Job aborted: " + EVIL, List.of());
        r.onEvent(new SparkEvent.StageCompleted(failed));
        r.onEvent(new SparkEvent.JobEnd(1, t0 + 7000, false, "Job aborted due to stage failure: " + EVIL
                + "\nline two\nline three\nline four, only in the whole text"));
        r.onEvent(new SparkEvent.ExecutorRemoved(t0 + 8000, "2", "Container killed: " + EVIL));
        r.onEvent(new SparkEvent.ApplicationEnd(t0 + 9000));
        return r.snapshot();
    }

    private static TaskInfo info(long id, int index, int attempt, long launch, String executor, long finish,
                                 boolean failed) {
        return new TaskInfo(id, index, attempt, index, launch, executor, "host-" + executor, "PROCESS_LOCAL", false,
                0, finish, failed, false);
    }
}
