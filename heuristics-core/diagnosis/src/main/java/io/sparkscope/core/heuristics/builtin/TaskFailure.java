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
                        "stages with fewer task attempts are not judged"),
                new Threshold("highMinFailedMs", "60000",
                        "a stage that still completed is at most LOW when its failed attempts took less task time"
                                + " (ms) than this and no task failed half the attempts it is allowed"));
    }

    @Override
    public String description() {
        return """
                per stage with ≥ `TaskFailure.minTasks` (10) attempts: failed/all ≥ `ratio.low` 0.05 LOW, ≥
                `ratio.high` 0.15 HIGH, because each failed attempt is wasted work and usually one repeated cause.
                Errors grouped by normalised message; executors with most failures; out-of-memory and lost-executor
                errors get StageFailure's advice. A stage that still completed, whose failed attempts took under
                `highMinFailedMs` 60 s of task time, is at most LOW: the retries absorbed the failures at little
                cost; not when one task failed at least twice and half the attempts it is allowed
                (`spark.task.maxFailures`, in local mode the master URL's), as the job nearly failed. Impact: the
                failed attempts' task time. Attempts count each task id once, and a finished task that Spark
                reported again as `Resubmitted` (its executor's output was lost) is no failure here: StageFailure and
                the executor losses tell that story.
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
            Map<Integer, Integer> failuresOfOneTask = new HashMap<>(); // by the task's index in the stage
            long failedMs = 0;
            int keptFailed = 0;
            for (TaskRecord t : s.keptTasks()) {
                if ("FAILED".equals(t.status())) {
                    errors.add(t.errorMessage(), s.key(), t.executorId());
                    failedMs += Math.max(0, t.durationMs());
                    keptFailed++;
                    failuresOfOneTask.merge(t.index(), 1, Integer::sum);
                    if (t.executorId() != null) {
                        perExecutor.merge(t.executorId(), 1, Integer::sum);
                    }
                }
            }
            if (keptFailed > 0 && keptFailed < failed) {
                failedMs = failedMs * failed / keptFailed; // the recorder keeps up to 1 000 failed tasks
            }
            // The retries absorbed the failures and the stage completed: a few cheap failed attempts are a tip, not
            // the application's problem, however large their share of a small stage. Unless one task failed again
            // and again: at half the attempts it is allowed, a little more bad luck would have failed the job.
            int mostByOneTask = failuresOfOneTask.values().stream().max(Integer::compare).orElse(0);
            boolean nearlyFailed = mostByOneTask >= Math.max(2, (conf.taskAttempts() + 1) / 2);
            if (severity == Severity.HIGH && s.status() == StageSummary.StageStatus.COMPLETE && !nearlyFailed
                    && failedMs < cfg.count(ID + ".highMinFailedMs")) {
                severity = Severity.LOW;
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
