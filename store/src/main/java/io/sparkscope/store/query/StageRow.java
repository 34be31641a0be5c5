package io.sparkscope.store.query;

import java.util.List;
import java.util.Map;

/**
 * One stage attempt without its tasks: the columns of the stage table plus its task-metric quantiles.
 *
 * @param quantiles  the quantiles the distributions were stored at (empty when no task succeeded)
 * @param statistics TaskMetricDistributions path → one value per quantile
 * @param totalsJson Spark's StageData totals as stored (jsonb text)
 * @param times      the task-time sums for "where task time went"
 * @param taskDetail which tasks were kept (ALL, SAMPLED, SLOWEST), null when stored before V4
 */
public record StageRow(
        int stageId,
        int attemptId,
        int ord,
        String name,
        String status,
        int numTasks,
        int numCompleteTasks,
        int numFailedTasks,
        int numKilledTasks,
        long submissionTime,
        long completionTime,
        long durationMs,
        String failureReason,
        List<Integer> jobIds,
        long executorRunTimeMs,
        long executorCpuTimeNs,
        long jvmGcTimeMs,
        long memoryBytesSpilled,
        long diskBytesSpilled,
        long shuffleReadBytes,
        long shuffleWriteBytes,
        long inputBytes,
        long outputBytes,
        String totalsJson,
        long summaryTaskCount,
        double[] quantiles,
        Map<String, double[]> statistics,
        Times times,
        String taskDetail) {

    /**
     * Task-time sums of the stage (Spark's totals, and the V4 sums of derived times).
     *
     * @param schedulerDelayMs Σ scheduler delay, null when stored before V4
     * @param gettingResultMs  Σ getting-result time, null when stored before V4
     * @param shuffleWriteNs   Spark reports it in nanoseconds
     */
    public record Times(Long schedulerDelayMs, Long gettingResultMs, long deserializeMs, long resultSerializationMs,
                        long shuffleFetchWaitMs, long shuffleWriteNs) {
    }

    public String key() {
        return stageId + "." + attemptId;
    }

    /** Value of one metric at quantile q, or NaN when not stored. */
    public double quantile(String metric, double q) {
        double[] v = statistics.get(metric);
        if (v == null) {
            return Double.NaN;
        }
        for (int i = 0; i < quantiles.length && i < v.length; i++) {
            if (Math.abs(quantiles[i] - q) < 1e-9) {
                return v[i];
            }
        }
        return Double.NaN;
    }
}
