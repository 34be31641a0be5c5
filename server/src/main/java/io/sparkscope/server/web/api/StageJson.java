package io.sparkscope.server.web.api;

import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.report.SnapshotJson;
import io.sparkscope.server.web.model.StoredJson;
import io.sparkscope.store.query.StageRow;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code /api/v1/apps/{id}/stages}: a stage attempt with Spark's StageData totals and, as {@code taskSummary},
 * Spark's REST TaskMetricDistributions at the requested quantiles (the same builder as {@code analyze --json}).
 */
record StageJson(int stageId, int attemptId, String name, String status, int numTasks, int numCompleteTasks,
                 int numFailedTasks, int numKilledTasks, long submissionTime, long completionTime, long durationMs,
                 String failureReason, List<Integer> jobIds, Map<String, Object> totals, long taskSummaryCount,
                 Map<String, Object> taskSummary) {

    static StageJson of(StageRow s, double[] quantiles) {
        return new StageJson(s.stageId(), s.attemptId(), s.name(), s.status(), s.numTasks(), s.numCompleteTasks(),
                s.numFailedTasks(), s.numKilledTasks(), s.submissionTime(), s.completionTime(), s.durationMs(),
                s.failureReason(), s.jobIds(), StoredJson.object(s.totalsJson()), s.summaryTaskCount(),
                distributions(s, quantiles));
    }

    /** Spark's shape, built by hand as {@code analyze --json} does; null when no task succeeded. */
    private static Map<String, Object> distributions(StageRow s, double[] wanted) {
        if (s.quantiles().length == 0) {
            return null;
        }
        double[][] values = new double[DistributionMetric.count()][];
        for (DistributionMetric dm : DistributionMetric.values()) {
            double[] v = s.statistics().get(dm.path);
            values[dm.ordinal()] = v != null && v.length == s.quantiles().length ? v : new double[s.quantiles().length];
        }
        TaskDistributions d = new TaskDistributions(s.summaryTaskCount(), s.quantiles(), values);
        return SnapshotJson.distributions(d.restrictTo(wanted));
    }

    /** The first wanted quantile this stage did not store, with the ones it did, or null when all are there. */
    static String missingQuantile(StageRow s, double[] wanted) {
        if (s.quantiles().length == 0) {
            return null;
        }
        outer:
        for (double q : wanted) {
            for (double have : s.quantiles()) {
                if (Math.abs(have - q) < 1e-9) {
                    continue outer;
                }
            }
            return String.format(Locale.ROOT, "%s (stored: %s)", q, Arrays.toString(s.quantiles()));
        }
        return null;
    }
}
