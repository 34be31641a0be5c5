package io.sparkscope.server.web;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Applications recorded by the real recorder for the diagnosis views: a stage whose task runs out of memory four
 * times fails, its job fails, and the stage another job was running is cancelled when the application stops.
 */
public final class DiagnosisApps {
    static final String OOM = "java.lang.OutOfMemoryError: Unable to acquire %d bytes of memory, got %d (buffer at"
            + " 0x7f%06x)\n\tat org.apache.spark.memory.MemoryConsumer.throwOom(MemoryConsumer.java:157)"
            + "\n\tat org.apache.spark.util.collection.ExternalSorter.insertAll(ExternalSorter.scala:%d)"
            + "\n\tat org.apache.spark.scheduler.ShuffleMapTask.runTask(ShuffleMapTask.scala:59)"
            + "\n\tat org.apache.spark.scheduler.Task.run(Task.scala:141)\n\tat java.base/java.lang.Thread.run";

    private DiagnosisApps() {
    }

    /**
     * Stage 0 (job 0, 8 tasks on 2 executors): partition 3 fails with {@link #OOM} on each of its 4 attempts, so the
     * stage and its job fail; stage 1 (job 1, running beside it) is cancelled when the SparkContext shuts down.
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
        r.onEvent(new SparkEvent.JobStart(0, t0, List.of(0), List.of(stage(0, t0, -1, null)), Map.of()));
        r.onEvent(new SparkEvent.JobStart(1, t0, List.of(1), List.of(stage(1, t0, -1, null)), Map.of()));
        r.onEvent(new SparkEvent.StageSubmitted(stage(0, t0, -1, null)));
        r.onEvent(new SparkEvent.StageSubmitted(stage(1, t0, -1, null)));
        long tid = 0;
        for (int index = 0; index < 8; index++) {
            if (index == 3) {
                continue;
            }
            r.onEvent(end(0, tid++, index, 0, index % 2 == 0 ? "1" : "2", t0, t0 + 20_000, null));
        }
        long at = t0;
        for (int attempt = 0; attempt < 4; attempt++) {
            String error = String.format(OOM, 67_108_864 + attempt * 1024, 1_048_576 * (attempt + 1),
                    0x123456 + attempt * 7919, 200 + attempt);
            r.onEvent(end(0, tid++, 3, attempt, attempt % 2 == 0 ? "2" : "1", at, at + 30_000, error));
            at += 31_000;
        }
        String reason = "Job aborted due to stage failure: Task 3 in stage 0.0 failed 4 times, most recent failure:"
                + " Lost task 3.3 in stage 0.0 (TID 10) (host-a executor 1): "
                + String.format(OOM, 67_111_936, 4_194_304, 0x12f8c1, 203);
        r.onEvent(new SparkEvent.StageCompleted(stage(0, t0, at, reason)));
        r.onEvent(new SparkEvent.JobEnd(0, at, false, reason));
        // stage 1 ran 6 of its tasks, then the application stopped
        for (int index = 0; index < 6; index++) {
            r.onEvent(end(1, tid++, index, 0, index % 2 == 0 ? "1" : "2", t0, t0 + 40_000, null));
        }
        String shutDown = "Stage cancelled because SparkContext was shut down";
        r.onEvent(new SparkEvent.StageCompleted(new StageInfo(1, 0, "count at Sessions.scala:88", 12, List.of(),
                "details", t0, at + 500, shutDown, List.of())));
        r.onEvent(new SparkEvent.JobEnd(1, at + 500, false, "Job 1 cancelled because SparkContext was shut down"));
        r.onEvent(new SparkEvent.ApplicationEnd(at + 1_000));
        return r.snapshot();
    }

    private static StageInfo stage(int id, long submitted, long completed, String failure) {
        return new StageInfo(id, 0, id == 0 ? "sortBy at Sessions.scala:41" : "count at Sessions.scala:88",
                id == 0 ? 8 : 12, List.of(), "details", submitted, completed, failure, List.of());
    }

    private static SparkEvent.TaskEnd end(int stage, long taskId, int index, int attempt, String executor, long launch,
                                          long finish, String error) {
        TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, finish - launch - 200)
                .set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, 100).set(TaskMetric.JVM_GC_TIME, 500).build();
        TaskEndReason reason = error == null ? TaskEndReason.SUCCESS
                : new TaskEndReason("ExceptionFailure", error.substring(0, error.indexOf('\n')), error);
        return new SparkEvent.TaskEnd(stage, 0, "ShuffleMapTask", reason, new TaskInfo(taskId, index, attempt, index,
                launch, executor, executor.equals("1") ? "host-a" : "host-b", "PROCESS_LOCAL", false, 0, finish,
                error != null, false), m);
    }
}
