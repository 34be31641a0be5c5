package io.sparkscope.store.query;

import io.sparkscope.core.model.TaskRecord;

import java.util.List;
import java.util.Map;

/**
 * What the task timeline of one stage attempt needs: the stage row, its kept tasks (in stored order, slowest first)
 * with the three executor-side times, the application's executors and the few settings that give their cores.
 *
 * <p>The tasks' {@link TaskRecord#metrics()} carry only {@code executorDeserializeTime}, {@code executorRunTime},
 * {@code resultSerializationTime} and {@code jvmGcTime} (the others read as 0); null when Spark reported none.
 *
 * @param taskDetail ALL, SAMPLED or SLOWEST as stored, null for a stage written before V4
 * @param sparkConf  only {@code spark.master}, {@code spark.executor.cores}, {@code spark.task.cpus}
 */
public record StageTimelineData(
        String appId,
        String attemptId,
        String appName,
        int stageId,
        int stageAttemptId,
        String stageName,
        String status,
        int numTasks,
        int numCompleteTasks,
        int numFailedTasks,
        int numKilledTasks,
        long submissionTime,
        long completionTime,
        String taskDetail,
        List<TaskRecord> tasks,
        List<ExecutorRow> executors,
        Map<String, String> sparkConf) {

    public StageTimelineData {
        tasks = List.copyOf(tasks);
        executors = List.copyOf(executors);
        sparkConf = Map.copyOf(sparkConf);
    }

    /** An executor as stored: cores 0 when Spark did not say. */
    public record ExecutorRow(String executorId, String host, int totalCores, long addTime, long removeTime) {
    }

    /** Task-end events of the attempt: what the kept tasks were chosen from. */
    public long endedTasks() {
        return (long) numCompleteTasks + numFailedTasks + numKilledTasks;
    }
}
