package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskRecord;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per stage, the share of task attempts that failed. Retries hide failures (the stage may still succeed), but each
 * failed attempt is wasted work and often a bug, lost executors or memory trouble.
 */
public final class TaskFailure implements Heuristic {
    public static final String ID = "TaskFailure";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        double low = cfg.threshold(ID + ".ratio.low");
        double high = cfg.threshold(ID + ".ratio.high");
        long minTasks = cfg.count(ID + ".minTasks");
        List<Finding> out = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            // Task attempts, each task id once; failures without Resubmitted ends (a finished task reported again
            // because its executor's output was lost did not fail: StageFailure and the executor losses tell that).
            long attempts = s.endedTasks();
            int failed = s.numFailedAttempts();
            if (failed == 0 || attempts < minTasks) {
                continue;
            }
            double ratio = (double) failed / attempts;
            Severity severity = Severity.atOrAbove(ratio, low, high);
            if (severity == Severity.NONE) {
                continue;
            }
            // Group the kept failed tasks' errors by their first line, and count failures per executor.
            Map<String, Integer> errors = new HashMap<>();
            Map<String, Integer> perExecutor = new HashMap<>();
            for (TaskRecord t : s.keptTasks()) {
                if ("FAILED".equals(t.status())) {
                    errors.merge(Facts.firstLines(t.errorMessage(), 1, 200), 1, Integer::sum);
                    if (t.executorId() != null) {
                        perExecutor.merge(t.executorId(), 1, Integer::sum);
                    }
                }
            }
            List<Map<String, Object>> topErrors = new ArrayList<>();
            errors.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(3)
                    .forEach(e -> {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("error", e.getKey());
                        m.put("count", e.getValue());
                        topErrors.add(m);
                    });
            Map<String, Object> reasons = new LinkedHashMap<>();
            s.endReasons().entrySet().stream().filter(e -> !StageSummary.RESUBMITTED.equals(e.getKey())).sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                    .forEach(e -> reasons.put(e.getKey(), e.getValue()));
            String mainReason = reasons.isEmpty() ? null : reasons.keySet().iterator().next();
            Finding.Builder f = Finding.builder(ID, severity)
                    .location(s.key())
                    .title(Units.percent(ratio) + " of tasks failed in stage " + s.stageId())
                    .message(failed + " of " + attempts + " task attempts (" + Units.percent(ratio)
                            + ") failed in " + Facts.stageLabel(s) + (mainReason == null ? "."
                            : "; most often " + mainReason + " (" + reasons.get(mainReason) + ")."))
                    .recommendation(advice(mainReason))
                    .stage(s.key())
                    .detail("failedTasks", failed)
                    .detail("taskAttempts", attempts)
                    .detail("failedRatio", Units.round2(ratio))
                    .detail("endReasons", reasons)
                    .detail("topErrors", topErrors);
            perExecutor.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(5)
                    .forEach(e -> f.executor(e.getKey()));
            out.add(f.build());
        }
        return out;
    }

    private static String advice(String mainReason) {
        if ("FetchFailed".equals(mainReason) || "ExecutorLostFailure".equals(mainReason)) {
            return "Tasks failed because executors or their shuffle files were lost, usually executors killed for"
                    + " memory. Raise spark.executor.memoryOverhead or spark.executor.memory, and keep shuffle files"
                    + " with spark.shuffle.service.enabled=true.";
        }
        return "Look at the grouped errors: an error repeated across tasks is a bug or bad input that retries cannot"
                + " fix. If failures sit on few executors, suspect those hosts (spark.excludeOnFailure.enabled=true"
                + " keeps tasks off them).";
    }
}
