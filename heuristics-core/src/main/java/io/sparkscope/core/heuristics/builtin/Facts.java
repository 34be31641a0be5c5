package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small derivations several built-in heuristics share. Package-private: not an API. */
final class Facts {
    private Facts() {
    }

    /** Stage wall time: completion − submission, else last task finish − first task launch, else 0. */
    static long stageDurationMs(StageSummary s) {
        long d = s.durationMs();
        if (d > 0) {
            return d;
        }
        if (s.firstTaskLaunchedTime() > 0 && s.lastTaskFinishedTime() > 0) {
            return Math.max(0, s.lastTaskFinishedTime() - s.firstTaskLaunchedTime());
        }
        return 0;
    }

    /** "stage 3" or "stage 3 (attempt 1)", with the stage name when known. */
    static String stageLabel(StageSummary s) {
        String label = "stage " + s.stageId() + (s.attemptId() > 0 ? " (attempt " + s.attemptId() + ")" : "");
        return s.name() == null || s.name().isBlank() ? label : label + " '" + s.name() + "'";
    }

    /** The summary when it holds the standard quantiles and at least one task, else null. */
    static TaskDistributions summary(StageSummary s) {
        TaskDistributions d = s.taskSummary();
        if (d == null || d.count() == 0 || !d.has(0.5) || !d.has(1.0)) {
            return null;
        }
        return d;
    }

    /** The first {@code lines} lines of a failure text, at most {@code maxChars}; "" for null. */
    static String firstLines(String text, int lines, int maxChars) {
        if (text == null) {
            return "";
        }
        String[] parts = text.strip().split("\\R", lines + 1);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(lines, parts.length); i++) {
            if (i > 0) {
                out.append('\n');
            }
            out.append(parts[i].stripTrailing());
        }
        return out.length() > maxChars ? out.substring(0, maxChars) + "…" : out.toString();
    }

    /** Executors that run tasks: the non-driver ones, or the driver in local mode. */
    static List<ExecutorSummary> taskRunners(AppSnapshot app) {
        List<ExecutorSummary> out = new ArrayList<>();
        ExecutorSummary driver = null;
        for (ExecutorSummary e : app.executors()) {
            if (e.isDriver()) {
                driver = e;
            } else {
                out.add(e);
            }
        }
        if (out.isEmpty() && driver != null) {
            out.add(driver);
        }
        return out;
    }

    /** Cores of an executor; for a local-mode driver reporting 0, the N of local[N]; 0 when unknown. */
    static int cores(ExecutorSummary e, SparkSettings settings) {
        if (e.totalCores() > 0) {
            return e.totalCores();
        }
        return e.isDriver() && settings.isLocal() ? settings.localCores().orElse(0) : 0;
    }

    /** End of the application for uptime purposes: its end, else its newest event. */
    static long appEnd(AppSnapshot app) {
        return app.endTime() > 0 ? app.endTime() : app.lastEventTime();
    }

    /** Quantile values of some metrics, as JSON-friendly lists under their Spark REST paths. */
    static Map<String, Object> quantiles(TaskDistributions d, DistributionMetric... metrics) {
        Map<String, Object> out = new LinkedHashMap<>();
        List<Double> qs = new ArrayList<>();
        for (double q : d.quantiles()) {
            qs.add(q);
        }
        out.put("quantiles", qs);
        for (DistributionMetric m : metrics) {
            List<Long> vals = new ArrayList<>();
            for (double v : d.values(m)) {
                vals.add(Math.round(v));
            }
            out.put(m.path, vals);
        }
        return out;
    }

    /** Where tasks use memory: the driver's heap in local mode, an executor's otherwise. */
    static String taskMemoryKey(SparkSettings s) {
        return s.isLocal() ? "spark.driver.memory" : "spark.executor.memory";
    }

    static long taskMemoryBytes(SparkSettings s) {
        return s.isLocal() ? s.driverMemoryBytes() : s.executorMemoryBytes();
    }
}
