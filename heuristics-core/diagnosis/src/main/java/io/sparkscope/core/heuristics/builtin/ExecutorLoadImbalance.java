package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.DetailLabel;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Some executors did far more work than the typical one: skewed partitions, data locality pinning tasks to a few
 * hosts, or executors that arrived late. Measured as max / median of the executors' summed task time.
 */
public final class ExecutorLoadImbalance implements Heuristic {
    public static final String ID = "ExecutorLoadImbalance";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("ratio.low", "1.8",
                        "busiest / median executor task time at or above which it is LOW"),
                new Threshold("ratio.high", "3.2",
                        "busiest / median executor task time at or above which it is HIGH"),
                new Threshold("minExecutors", "3",
                        "fewer executors that ran tasks are not judged"),
                new Threshold("minTotalTaskMs", "300000",
                        "less total task time (ms) is not judged"));
    }

    @Override
    public Map<String, DetailLabel> detailLabels() {
        return Map.of("ratio", new DetailLabel("Busiest executor ÷ median executor", DetailLabel.Unit.TIMES),
                "tasks", new DetailLabel("Tasks", DetailLabel.Unit.COUNT));
    }

    @Override
    public String description() {
        return """
                ≥ 3 executors that ran tasks, Σ task time ≥ 5 min: max/median executor task time ≥ 1.8 LOW, ≥ 3.2
                HIGH, because the others sit idle while one works. Impact: the excess over the busiest executor's
                cores. `spark.locality.wait` is advised only when it is above 1 s.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        List<ExecutorSummary> busy = new ArrayList<>();
        long total = 0;
        for (ExecutorSummary e : app.executors()) {
            if (!e.isDriver() && e.completedTasks() + e.failedTasks() + e.killedTasks() > 0) {
                busy.add(e);
                total += e.totalDuration();
            }
        }
        if (busy.size() < cfg.count(ID + ".minExecutors") || total < cfg.count(ID + ".minTotalTaskMs")) {
            return List.of();
        }
        busy.sort(Comparator.comparingLong(ExecutorSummary::totalDuration));
        // Spark's quantile rule (index floor(q·n)), so the median matches what the executors page suggests.
        long median = busy.get(busy.size() / 2).totalDuration();
        ExecutorSummary max = busy.get(busy.size() - 1);
        double ratio = (double) max.totalDuration() / Math.max(1, median);
        Severity severity = cfg.levels(ID + ".ratio").grade(ratio);
        if (severity == Severity.NONE) {
            return List.of();
        }
        List<Map<String, Object>> top = new ArrayList<>();
        Finding.Builder f = Finding.builder(ID, severity);
        for (int i = busy.size() - 1; i >= Math.max(0, busy.size() - 3); i--) {
            ExecutorSummary e = busy.get(i);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("executorId", e.executorId());
            m.put("host", e.host() == null ? "" : e.host());
            m.put("taskTimeMs", e.totalDuration());
            m.put("tasks", e.completedTasks() + e.failedTasks() + e.killedTasks());
            top.add(m);
            f.executor(e.executorId());
        }
        SparkSettings conf = SparkSettings.of(app);
        String locality;
        SparkSettings.Value wait = conf.current("spark.locality.wait");
        if (conf.timeMs("spark.locality.wait", 1).orElse(3000) <= 1000) {
            locality = "tasks do not wait long for data locality (spark.locality.wait is " + wait.value() + ")";
        } else {
            SettingAdvice a = conf.advise("spark.locality.wait", "1s",
                    "executor " + max.executorId() + " ran " + Units.times(ratio) + " the median executor's task time");
            f.advise(a);
            locality = "if tasks wait for data locality, shorten the wait: " + a.phrase();
        }
        int maxCores = Math.max(1, Facts.cores(max, conf));
        long extra = max.totalDuration() - median;
        f.impact(extra / maxCores, 0, "busiest executor's task time − the median executor's, over its cores");
        return List.of(f
                .title("Executor " + max.executorId() + " worked " + Units.times(ratio) + " the median executor")
                .message("Across " + busy.size() + " executors, executor " + max.executorId() + " ran "
                        + Units.duration(max.totalDuration()) + " of tasks against a median of "
                        + Units.duration(median) + " (" + Units.times(ratio) + "), so others sat idle while it worked.")
                .recommendation("Check the StageSkew findings for skewed partitions; " + locality
                        + "; repartition unevenly sized inputs"
                        + (conf.dynamicAllocation() ? "; with dynamic allocation (on here), executors that arrive late"
                        + " get less work by design." : "."))
                .detail("ratio", Units.round2(ratio))
                .detail("maxTaskTimeMs", max.totalDuration())
                .detail("medianTaskTimeMs", median)
                .detail("executors", busy.size())
                .detail("busiest", top)
                .build());
    }
}
