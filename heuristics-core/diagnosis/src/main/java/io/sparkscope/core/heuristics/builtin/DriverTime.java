package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskSpanSummary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Time when no task ran anywhere: the driver alone was working (planning, listing files, collect, pandas, sleeps)
 * while executors waited. Computed as application time minus the union of the stages' task spans
 * [first task launch, last task finish]; sorted by start, so O(stages · log stages).
 */
public final class DriverTime implements Heuristic {
    public static final String ID = "DriverTime";
    /** Start-up, planning and the final write leave some time without tasks in any healthy run. */
    static final double HEALTHY_SHARE = 0.1;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("ratio.low", "0.3",
                        "share of application time with no task running at or above which it is LOW"),
                new Threshold("ratio.high", "0.5",
                        "share of application time with no task running at or above which it is HIGH"),
                new Threshold("minAppMs", "60000",
                        "application time (ms) from which the share is fully judged"),
                new Threshold("floorAppMs", "20000",
                        "below this application time (ms) nothing is judged; up to minAppMs only ratio.high, as LOW"));
    }

    @Override
    public String description() {
        return """
                apps ≥ 60 s: share of time with no task running (app time minus the union of stage task spans) ≥ 0.3
                LOW, ≥ 0.5 HIGH; between `floorAppMs` 20 s and 60 s only ≥ 0.5, as LOW; because executors wait while
                only the driver works. Silent when no stage has task times. Dynamic allocation is advised only when
                it is off and not in local mode. Impact: driver-only time above 10 % of the application.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long appMs = app.durationMs();
        if (appMs <= 0 || appMs < cfg.count(ID + ".floorAppMs")) {
            return List.of();
        }
        // Start-up is a larger share of a short run, so below minAppMs only a share at the HIGH level counts, and
        // only as LOW: a driver that works alone through most of a 40-second run is still worth saying.
        boolean judged = appMs >= cfg.count(ID + ".minAppMs");
        long start = app.startTime();
        long end = start + appMs;
        record Span(long from, long to, String stage) {
        }
        List<Span> spans = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            if (s.firstTaskLaunchedTime() <= 0) {
                continue;
            }
            long to = s.lastTaskFinishedTime() > 0 ? s.lastTaskFinishedTime() : end;
            spans.add(new Span(Math.max(start, s.firstTaskLaunchedTime()), Math.min(end, to), s.key()));
        }
        // Stages that left a long-running application's snapshot are summed up in the run's totals: the sweep
        // continues where their spans end, with their busy time and longest gaps.
        TaskSpanSummary earlier = app.totals().taskSpans();
        if (spans.isEmpty() && earlier == null) {
            return List.of(); // no task times known (no stages, or a cut log): nothing to compare against
        }
        spans.sort(Comparator.comparingLong(Span::from));
        record Gap(long from, long to, String after, String before) {
        }
        List<Gap> gaps = new ArrayList<>();
        long cursor = start;
        String previous = null;
        long busy = 0;
        if (earlier != null) {
            if (earlier.from() > start) {
                gaps.add(new Gap(start, earlier.from(), null, null));
            }
            for (TaskSpanSummary.Gap g : earlier.longestGaps()) {
                gaps.add(new Gap(g.from(), g.to(), g.after(), g.before()));
            }
            busy = Math.min(earlier.busyMs(), Math.max(0, Math.min(end, earlier.to()) - start));
            cursor = Math.max(start, Math.min(end, earlier.to()));
            previous = earlier.lastStage();
        }
        for (Span sp : spans) {
            if (sp.to() <= cursor) {
                continue;
            }
            long from = Math.max(cursor, sp.from());
            if (from > cursor) {
                gaps.add(new Gap(cursor, from, previous, sp.stage()));
            }
            busy += sp.to() - from;
            cursor = sp.to();
            previous = sp.stage();
        }
        if (end > cursor) {
            gaps.add(new Gap(cursor, end, previous, null));
        }
        long idleMs = Math.max(0, appMs - busy);
        double share = (double) idleMs / appMs;
        Severity severity = cfg.levels(ID + ".ratio").grade(share, judged);
        if (severity == Severity.NONE) {
            return List.of();
        }
        gaps.sort(Comparator.comparingLong((Gap g) -> g.to() - g.from()).reversed());
        List<Map<String, Object>> longest = new ArrayList<>();
        for (Gap g : gaps.subList(0, Math.min(3, gaps.size()))) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("startOffsetMs", g.from() - start);
            m.put("durationMs", g.to() - g.from());
            m.put("afterStage", g.after());
            m.put("beforeStage", g.before());
            longest.add(m);
        }
        Gap top = gaps.isEmpty() ? null : gaps.get(0);
        String where = top == null ? "" : " The longest stretch, " + Units.duration(top.to() - top.from()) + ", came "
                + (top.after() == null ? "before the first stage" : "after stage " + top.after())
                + (top.before() == null ? (top.after() == null ? "" : " until the application ended")
                : (top.after() == null ? " (start-up and planning)" : " before stage " + top.before())) + ".";
        SparkSettings conf = SparkSettings.of(app);
        Finding.Builder f = Finding.builder(ID, severity);
        String release;
        if (conf.isLocal()) {
            release = "";
        } else if (conf.dynamicAllocation()) {
            release = "; dynamic allocation is on, so executors idle for spark.dynamicAllocation.executorIdleTimeout"
                    + " (now " + conf.current("spark.dynamicAllocation.executorIdleTimeout").value() + ") are already"
                    + " released while the driver works";
        } else {
            SettingAdvice dyn = conf.advise("spark.dynamicAllocation.enabled", "true",
                    "no task ran for " + Units.percent(share) + " of the application");
            f.advise(dyn);
            release = "; with dynamic allocation (" + dyn.phrase() + ", plus shuffle tracking or the shuffle"
                    + " service) executors are at least released while the driver works";
        }
        long saved = Math.max(0, idleMs - Math.round(HEALTHY_SHARE * appMs));
        return List.of(f
                .impact(saved, 0, "time with no task running, above " + Units.percent(HEALTHY_SHARE)
                        + " of the application for start-up and planning")
                .title("No task ran for " + Units.percent(share) + " of the application")
                .message("For " + Units.duration(idleMs) + " of the application's " + Units.duration(appMs) + " ("
                        + Units.percent(share) + ") no task was running: only the driver worked (start-up, query"
                        + " planning, file listing, collect/toPandas, driver-side Python) while executors waited."
                        + where + (judged ? "" : " A short run, so only a share this large is reported."))
                .recommendation("Move work off the driver: avoid collect()/toPandas() of large data and driver-side"
                        + " loops, cache or checkpoint plans that are re-analysed in loops, and run independent"
                        + " actions concurrently" + release + ".")
                .executor("driver")
                .detail("noTaskMs", idleMs)
                .detail("appDurationMs", appMs)
                .detail("noTaskShare", Units.round2(share))
                .detail("longestGaps", longest)
                .build());
    }
}
