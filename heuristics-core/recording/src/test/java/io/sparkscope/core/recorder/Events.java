package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;

import java.util.List;
import java.util.Map;

/** Small builders of hand-made events for recorder tests. */
final class Events {
    private Events() {
    }

    static StageInfo stage(int id, int attempt, int numTasks, long submitted, long completed, String failure) {
        return new StageInfo(id, attempt, "stage " + id, numTasks, List.of(), "details", submitted, completed,
                failure, List.of());
    }

    static TaskInfo task(long taskId, int index, long launch, long finish, String executor, boolean failed) {
        return new TaskInfo(taskId, index, 0, index, launch, executor, "host", "PROCESS_LOCAL", false, 0, finish,
                failed, false);
    }

    static TaskMetrics metrics(long runTime, long gc) {
        return TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, runTime).set(TaskMetric.JVM_GC_TIME, gc)
                .set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, 1).build();
    }

    static SparkEvent.TaskEnd success(int stage, int attempt, TaskInfo info, TaskMetrics m) {
        return new SparkEvent.TaskEnd(stage, attempt, "ResultTask", TaskEndReason.SUCCESS, info, m);
    }

    static SparkEvent.TaskEnd failure(int stage, int attempt, TaskInfo info, TaskMetrics m) {
        return new SparkEvent.TaskEnd(stage, attempt, "ResultTask",
                new TaskEndReason("ExceptionFailure", "java.lang.RuntimeException: boom", "trace"), info, m);
    }

    static SparkEvent.ApplicationStart appStart(long time) {
        return new SparkEvent.ApplicationStart("app", "app-1", null, time, "alice");
    }

    static SparkEvent.EnvironmentUpdate env(Map<String, String> spark) {
        return new SparkEvent.EnvironmentUpdate(spark, Map.of(), Map.of(), Map.of());
    }
}
