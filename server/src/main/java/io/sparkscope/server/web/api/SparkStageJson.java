package io.sparkscope.server.web.api;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.report.SnapshotJson;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A stage attempt in the shape of Spark's REST API v1 {@code StageData}: its counts, dates and totals under Spark's
 * names, with {@code details} its tasks (by id) and per-executor sums ({@code executorSummary}), with summaries its
 * task-metric quantiles ({@code taskMetricsDistributions}).
 *
 * <p>What the database does not keep is written as Spark writes it for a stage that had none of it: no RDD ids,
 * accumulator updates or peak executor metrics, the default pool and resource profile. The tasks are the ones
 * kept: every task when the stage was within the recorder's per-stage cap, else the slowest and the failed ones;
 * the per-executor sums are given in the first case, and in the second only when one executor ran every task of the
 * application (its sums are then the stage's own), since sums over part of the tasks would mislead.
 */
final class SparkStageJson {
    private SparkStageJson() {
    }

    /**
     * @param description  the description of the job that submitted the stage ({@code spark.job.description}), or
     *                     null: Spark's stage description is that property as the stage was submitted
     * @param soleExecutor the executor that ran every task of the application, or null when several did
     * @param taskStatuses with details, the task statuses to list (empty: all)
     * @param quantiles    with summaries, the quantiles wanted (stored ones only: the caller checked)
     */
    static Map<String, Object> of(StageSummary s, String description, String soleExecutor, boolean details,
                                  Set<String> taskStatuses, double[] quantiles) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", s.status().name());
        m.put("stageId", s.stageId());
        m.put("attemptId", s.attemptId());
        m.put("numTasks", s.numTasks());
        m.put("numActiveTasks", s.numActiveTasks());
        m.put("numCompleteTasks", s.numCompleteTasks());
        m.put("numFailedTasks", s.numFailedTasks());
        m.put("numKilledTasks", s.numKilledTasks());
        m.put("numCompletedIndices", s.numCompletedIndices());
        putDate(m, "submissionTime", s.submissionTime());
        putDate(m, "firstTaskLaunchedTime", s.firstTaskLaunchedTime());
        putDate(m, "completionTime", s.completionTime());
        if (s.failureReason() != null) {
            m.put("failureReason", s.failureReason());
        }
        m.putAll(s.totals().asSparkFields());
        m.put("name", s.name());
        if (description != null) {
            m.put("description", description);
        }
        m.put("details", s.details() == null ? "" : s.details());
        m.put("schedulingPool", "default");
        m.put("rddIds", List.of());
        m.put("accumulatorUpdates", List.of());
        if (details) {
            Map<String, Object> tasks = new TreeMap<>((a, b) -> Long.compare(Long.parseLong(a), Long.parseLong(b)));
            for (TaskRecord t : s.keptTasks()) {
                if (taskStatuses.isEmpty() || taskStatuses.contains(t.status())) {
                    tasks.put(Long.toString(t.taskId()), SparkRestJson.Task.of(t));
                }
            }
            m.put("tasks", tasks);
            if (s.taskDetail() == StageSummary.TaskDetail.ALL) {
                m.put("executorSummary", executorSummary(s.keptTasks()));
            } else if (soleExecutor != null && s.taskTimes() != null) {
                m.put("executorSummary", Map.of(soleExecutor, soleExecutorSummary(s)));
            }
        }
        m.put("killedTasksSummary", killed(s));
        m.put("resourceProfileId", 0);
        if (quantiles != null && s.taskSummary() != null) {
            m.put("taskMetricsDistributions", SnapshotJson.distributions(s.taskSummary().restrictTo(quantiles)));
        }
        m.put("isShufflePushEnabled", false);
        m.put("shuffleMergersCount", 0);
        return m;
    }

    /** The first of {@code wanted} the stage did not store, or null (also when it has no quantiles at all). */
    static Double missingQuantile(TaskDistributions d, double[] wanted) {
        if (d == null) {
            return null;
        }
        for (double q : wanted) {
            try {
                d.restrictTo(new double[] {q});
            } catch (IllegalArgumentException notStored) {
                return q;
            }
        }
        return null;
    }

    private static void putDate(Map<String, Object> m, String field, long epochMs) {
        String d = SparkRestJson.date(epochMs);
        if (d != null) {
            m.put(field, d);
        }
    }

    /**
     * Spark counts killed tasks by their kill reason; the database keeps the count per kind of end and the
     * reason of each kept killed task, so reasons are named where the kept tasks account for them all.
     */
    private static Map<String, Integer> killed(StageSummary s) {
        Map<String, Integer> out = new TreeMap<>();
        int killed = s.endReasons().getOrDefault("TaskKilled", 0);
        Map<String, Integer> byReason = new TreeMap<>();
        int named = 0;
        for (TaskRecord t : s.keptTasks()) {
            if ("TaskKilled".equals(t.endReason()) && t.errorMessage() != null) {
                byReason.merge(t.errorMessage(), 1, Integer::sum);
                named++;
            }
        }
        if (killed > 0) {
            if (named == killed) {
                out.putAll(byReason);
            } else {
                out.put("TaskKilled", killed);
            }
        }
        int denied = s.endReasons().getOrDefault("TaskCommitDenied", 0);
        if (denied > 0) {
            out.put("TaskCommitDenied", denied);
        }
        return out;
    }

    /**
     * The one executor's {@code ExecutorStageSummary} when it ran every task: the stage's own totals and counts (its
     * task time summed over the task ends with metrics, which are all of them but for a lost executor's or a killed
     * task's).
     */
    private static Map<String, Object> soleExecutorSummary(StageSummary s) {
        StageTotals t = s.totals();
        return summary(s.taskTimes().durationMs(), s.numFailedTasks(), s.numCompleteTasks(), s.numKilledTasks(),
                new long[] {t.get(TaskMetric.INPUT_BYTES), t.get(TaskMetric.INPUT_RECORDS),
                        t.get(TaskMetric.OUTPUT_BYTES), t.get(TaskMetric.OUTPUT_RECORDS), t.shuffleReadBytes(),
                        t.get(TaskMetric.SHUFFLE_RECORDS_READ), t.get(TaskMetric.SHUFFLE_BYTES_WRITTEN),
                        t.get(TaskMetric.SHUFFLE_RECORDS_WRITTEN), t.get(TaskMetric.MEMORY_BYTES_SPILLED),
                        t.get(TaskMetric.DISK_BYTES_SPILLED)});
    }

    /** Spark's {@code ExecutorStageSummary} per executor, summed over the given (every) task of the stage. */
    private static Map<String, Object> executorSummary(List<TaskRecord> tasks) {
        Map<String, long[]> sums = new TreeMap<>();
        for (TaskRecord t : tasks) {
            if (t.executorId() == null) {
                continue;
            }
            long[] v = sums.computeIfAbsent(t.executorId(), k -> new long[14]);
            v[0] += Math.max(0, t.durationMs());
            switch (t.status()) {
                case "SUCCESS" -> v[2]++;
                case "KILLED" -> v[3]++;
                case "FAILED" -> v[1]++;
                default -> { }
            }
            TaskMetrics mt = t.metrics();
            if (mt != null) {
                v[4] += mt.get(TaskMetric.INPUT_BYTES);
                v[5] += mt.get(TaskMetric.INPUT_RECORDS);
                v[6] += mt.get(TaskMetric.OUTPUT_BYTES);
                v[7] += mt.get(TaskMetric.OUTPUT_RECORDS);
                v[8] += mt.get(TaskMetric.SHUFFLE_REMOTE_BYTES_READ) + mt.get(TaskMetric.SHUFFLE_LOCAL_BYTES_READ);
                v[9] += mt.get(TaskMetric.SHUFFLE_RECORDS_READ);
                v[10] += mt.get(TaskMetric.SHUFFLE_BYTES_WRITTEN);
                v[11] += mt.get(TaskMetric.SHUFFLE_RECORDS_WRITTEN);
                v[12] += mt.get(TaskMetric.MEMORY_BYTES_SPILLED);
                v[13] += mt.get(TaskMetric.DISK_BYTES_SPILLED);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        sums.forEach((id, v) -> out.put(id, summary(v[0], v[1], v[2], v[3], java.util.Arrays.copyOfRange(v, 4, 14))));
        return out;
    }

    /**
     * @param io input bytes and records, output bytes and records, shuffle read bytes and records, shuffle write
     *           bytes and records, memory and disk bytes spilled
     */
    private static Map<String, Object> summary(long taskTime, long failed, long succeeded, long killed, long[] io) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("taskTime", taskTime);
        e.put("failedTasks", failed);
        e.put("succeededTasks", succeeded);
        e.put("killedTasks", killed);
        String[] names = {"inputBytes", "inputRecords", "outputBytes", "outputRecords", "shuffleRead",
                "shuffleReadRecords", "shuffleWrite", "shuffleWriteRecords", "memoryBytesSpilled", "diskBytesSpilled"};
        for (int i = 0; i < names.length; i++) {
            e.put(names[i], io[i]);
        }
        e.put("isBlacklistedForStage", false);
        e.put("isExcludedForStage", false);
        return e;
    }
}
