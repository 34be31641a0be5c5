package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.ErrorGroups;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
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
 * failed attempt is wasted work and often a bug, lost executors or memory trouble. Errors are grouped by their
 * normalised message (addresses, ids, hosts and numbers masked), with the first occurrence verbatim.
 */
public final class TaskFailure implements Heuristic {
    public static final String ID = "TaskFailure";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("ratio.low", "0.05",
                        "failed / all task attempts of a stage at or above which it is LOW"),
                new Threshold("ratio.high", "0.15",
                        "failed / all task attempts of a stage at or above which it is HIGH"),
                new Threshold("minTasks", "10",
                        "stages with fewer task attempts are not judged"));
    }

    @Override
    public String description() {
        return """
                per stage with ≥ `TaskFailure.minTasks` (10) attempts: failed/all ≥ `ratio.low` 0.05 LOW, ≥
                `ratio.high` 0.15 HIGH, because each failed attempt is wasted work and usually one repeated cause.
                Errors grouped by normalised message; executors with most failures; out-of-memory and lost-executor
                errors get StageFailure's advice. Impact: the failed attempts' task time. Attempts count each task
                id once, and a finished task that Spark reported again as `Resubmitted` (its executor's output was
                lost) is no failure here: StageFailure and the executor losses tell that story.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        var levels = cfg.levels(ID + ".ratio");
        long minTasks = cfg.count(ID + ".minTasks");
        SparkSettings conf = SparkSettings.of(app);
        Map<String, Facts.StageKind> kinds = Facts.stageKinds(app);
        int slots = Facts.slots(app, conf);
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
            Severity severity = levels.grade(ratio);
            if (severity == Severity.NONE) {
                continue;
            }
            ErrorGroups errors = new ErrorGroups();
            Map<String, Integer> perExecutor = new HashMap<>();
            long failedMs = 0;
            int keptFailed = 0;
            for (TaskRecord t : s.keptTasks()) {
                if ("FAILED".equals(t.status())) {
                    errors.add(t.errorMessage(), s.key(), t.executorId());
                    failedMs += Math.max(0, t.durationMs());
                    keptFailed++;
                    if (t.executorId() != null) {
                        perExecutor.merge(t.executorId(), 1, Integer::sum);
                    }
                }
            }
            if (keptFailed > 0 && keptFailed < failed) {
                failedMs = failedMs * failed / keptFailed; // the recorder keeps up to 1 000 failed tasks
            }
            List<Map<String, Object>> groups = errors.top(5);
            List<Map<String, Object>> topErrors = new ArrayList<>();
            for (Map<String, Object> g : groups.subList(0, Math.min(3, groups.size()))) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("error", Facts.firstLines((String) g.get("first"), 1, 200));
                m.put("count", g.get("count"));
                topErrors.add(m);
            }
            Map<String, Object> reasons = new LinkedHashMap<>();
            s.endReasons().entrySet().stream().filter(e -> !StageSummary.RESUBMITTED.equals(e.getKey())).sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                    .forEach(e -> reasons.put(e.getKey(), e.getValue()));
            String mainReason = reasons.isEmpty() ? null : reasons.keySet().iterator().next();
            String topError = groups.isEmpty() ? null : Facts.firstLines((String) groups.get(0).get("first"), 1, 200);
            Finding.Builder f = Finding.builder(ID, severity)
                    .location(s.key())
                    .title(Units.percent(ratio) + " of tasks failed in stage " + s.stageId())
                    .message(failed + " of " + attempts + " task attempts (" + Units.percent(ratio)
                            + ") failed in " + Facts.stageLabel(s, app) + (mainReason == null ? "."
                            : "; most often " + mainReason + " (" + reasons.get(mainReason) + ").")
                            + (topError == null ? "" : " " + (errors.size() == 1 ? "All with one error"
                            : errors.size() + " distinct errors, the most common (" + groups.get(0).get("count")
                            + "×)") + ": " + topError))
                    .stage(s.key())
                    .impact(WallTime.ofStage(app, s, failedMs), failedMs, "the failed attempts' task time")
                    .detail("failedTasks", failed)
                    .detail("taskAttempts", attempts)
                    .detail("failedRatio", Units.round2(ratio))
                    .detail("endReasons", reasons)
                    .detail("topErrors", topErrors)
                    .detail("errorGroups", groups);
            List<Map.Entry<String, Integer>> worst = perExecutor.entrySet().stream()
                    .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(5).toList();
            worst.forEach(e -> f.executor(e.getKey()));
            boolean concentrated = !worst.isEmpty() && perExecutor.size() <= 2 && keptFailed >= 4
                    && app.executors().stream().filter(e -> !e.isDriver()).count() > 3;
            String lostOrOom = ("FetchFailed".equals(mainReason) || "ExecutorLostFailure".equals(mainReason))
                    ? mainReason : topError;
            String specific = lostOrOom == null ? null : StageFailure.advise(f, app, conf, s, kinds.get(s.key()), slots,
                    lostOrOom);
            f.recommendation(specific != null && !specific.startsWith("Read the reason")
                    ? specific : advice(f, conf, s, concentrated));
            out.add(f.build());
        }
        return out;
    }

    private static String advice(Finding.Builder f, SparkSettings conf, StageSummary s, boolean concentrated) {
        String hosts = "";
        if (concentrated && !conf.bool("spark.excludeOnFailure.enabled", false)) {
            SettingAdvice exclude = conf.advise("spark.excludeOnFailure.enabled", "true",
                    "failures of stage " + s.stageId() + " sit on few executors");
            f.advise(exclude);
            hosts = " The failures sit on few executors: suspect those hosts (" + exclude.phrase()
                    + " keeps tasks off them).";
        }
        return "Look at the grouped errors: an error repeated across tasks is a bug or bad input (or, for out-of-memory"
                + " errors, partitions too large for the memory per task) that retries cannot fix." + hosts;
    }
}
