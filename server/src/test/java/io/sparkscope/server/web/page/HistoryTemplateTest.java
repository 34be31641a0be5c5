package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.prediction.AdviceLedger;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.analysis.prediction.KeyStage;
import io.sparkscope.core.analysis.prediction.LinearFit;
import io.sparkscope.core.analysis.prediction.Prediction;
import io.sparkscope.core.analysis.prediction.PredictionWarning;
import io.sparkscope.core.analysis.prediction.StageKey;
import io.sparkscope.core.analysis.prediction.StageMean;
import io.sparkscope.server.web.model.JobView;
import io.sparkscope.server.web.model.RecurringJob;
import io.sparkscope.server.web.model.RunHistory;
import io.sparkscope.server.web.model.RunPrediction;
import io.sparkscope.server.web.model.WebData;
import io.sparkscope.store.query.AppEfficiency;
import io.sparkscope.store.query.HistoryQuery;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The history pages (history.jte, historyJobs.jte, historyName.jte) are the pages the code wrote, byte for byte, and
 * job names, keys, users, programs, typed sizes and errors are escaped.
 */
class HistoryTemplateTest {
    private static final String EVIL = TaskPages.EVIL;
    private static final long START = 1_700_000_000_000L;

    static JobView job(boolean configured) {
        return new JobView("key " + EVIL, configured, "ETL " + EVIL, "ann " + EVIL, configured ? "" : "com.x.Main" + EVIL,
                configured ? "" : "yarn " + EVIL);
    }

    /** Jobs of every trend (unknown, steady, slower, faster), named and not, configured keys and derived ones. */
    static List<RecurringJob> jobs() {
        List<RecurringJob> out = new ArrayList<>();
        double[] ratios = {0, 1.02, 1.9, 0.4};
        for (int i = 0; i < 8; i++) {
            out.add(new RecurringJob(job(i % 2 == 0), i % 3 == 0 ? null : "job " + i + " " + EVIL, "ann " + EVIL,
                    2 + i, START, START + 1_000L * i, i % 4 == 3 ? -1 : 60_000L * i, ratios[i % 4]));
        }
        return out;
    }

    /** Runs slow and not, with and without efficiency figures, input measured or not. */
    static RunHistory history(int n) {
        List<RunHistory.Point> points = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            var run = new HistoryQuery.Run("app-" + i + " " + EVIL, i % 2 == 0 ? null : "1", "ETL", "ann", START + i,
                    60_000L * (i + 1), 90_000L * i, i % 3 == 0 ? 0 : 1L << (20 + i), 5L * i, 7L * i, true,
                    i % 4 == 0 ? null : i % 4 == 1 ? "LOW" : "HIGH", i % 3,
                    i % 3 == 2 ? null : new AppEfficiency(10.5 * i, 4, 6.5, 0.5, 40, 20.0, 20.0, 1, 61_000));
            boolean slow = i % 4 == 3;
            points.add(i % 5 == 1 ? new RunHistory.Point(run, 45_000L * i, false, 2.0, 1.1, null)
                    : i % 5 == 2 ? new RunHistory.Point(run, 45_000L * i, slow, 0, 0, regression())
                    : new RunHistory.Point(run, i < 3 ? -1 : 45_000L * i, slow));
        }
        List<AdviceLedger.Entry> advice = List.of(
                new AdviceLedger.Entry("app-1 " + EVIL, "Partitioning", "Partitioning", "spark.sql.shuffle.partitions",
                        null, EVIL, "app-2", EVIL, AdviceLedger.Outcome.DID_NOT_HELP, 30_000, 60_000, -4_000, 1_000, -0.1,
                        360_000),
                new AdviceLedger.Entry("app-3", "Memory", "Memory " + EVIL, "spark.executor.memory", "4g", "8g", null, null,
                        AdviceLedger.Outcome.NOT_APPLIED, 10_000, 0, 0, 0, Double.NaN, Long.MIN_VALUE));
        return new RunHistory(job(false), "ETL " + EVIL, points, advice);
    }

    /** A Regression finding that says what changed, with text to escape. */
    static Finding regression() {
        return Finding.builder("Regression", Severity.HIGH).message("slower " + EVIL).detail("metric", "duration")
                .detail("ratio", 2.2).detail("inputRatio", 1.0).detail("perByteDurationRatio", 2.2)
                .detail("settingsChanged", List.of(Map.of("key", "spark.x " + EVIL, "before", "1", "after", EVIL)))
                .detail("operatorsAdded", Map.of("Exchange " + EVIL, 2)).detail("operatorsRemoved", Map.of("Sort", 1))
                .detail("stagesGrown", List.of(Map.of("stage", "job #1: map " + EVIL, "beforeMs", 1_000, "afterMs",
                        9_000))).build();
    }

    static RunPrediction prediction(boolean reliable) {
        List<KeyStage> keys = List.of(new KeyStage(new StageKey(0, "map " + EVIL, 0), 12_000.4, 300, new LinearFit(
                1234.5, 0.000123456, 0.987, 5), 15_000.6), new KeyStage(new StageKey(2, "join", 1), 800, 10,
                new LinearFit(-3, 2e-9, 0.5, 5), 900));
        List<StageMean> others = List.of(new StageMean(new StageKey(1, "collect " + EVIL, 0), 400.5, 5),
                new StageMean(new StageKey(3, "save", 2), 99.4, 4));
        List<PredictionWarning> warnings = reliable ? List.of() : Arrays.asList(PredictionWarning.values());
        Prediction p = new Prediction("ETL " + EVIL, 5L << 30, 123_456, keys, others, 2_500.5, 3_000, 100, 5,
                1L << 30, 3L << 30, warnings, reliable ? List.of()
                : List.of(new Prediction.LeftOut("app-9 " + EVIL, null, 1L << 30, 600_000, 100_000)));
        return new RunPrediction(p, 5, reliable ? 0 : 2);
    }

    @Test
    void sameBytesAsTheCodeForEveryPage() {
        SameBytes.assertSame(CodeHistoryView.jobs(jobs()), HistoryView.jobs(jobs()), "jobs");
        SameBytes.assertSame(CodeHistoryView.jobs(List.of()), HistoryView.jobs(List.of()), "no jobs");
        for (WebData.JobLookup l : List.of(new WebData.JobLookup("ETL " + EVIL, null, List.of(), 0),
                new WebData.JobLookup("ETL " + EVIL, null, List.of(), 3),
                new WebData.JobLookup("ETL " + EVIL, null, jobs(), 0),
                new WebData.JobLookup("ETL " + EVIL, null, jobs().subList(0, 2), 1))) {
            SameBytes.assertSame(CodeHistoryView.noSingleJob(l), HistoryView.noSingleJob(l), l.toString());
        }
        String json = "{\"name\":\"</script><script>alert('x')</script> naïve\"}";
        List<HistoryView.PredictForm> forms = List.of(new HistoryView.PredictForm(null, null, null),
                new HistoryView.PredictForm("1GB\"><script>", null, "not a size: " + EVIL),
                new HistoryView.PredictForm("5g", prediction(true), null),
                new HistoryView.PredictForm("5g", prediction(false), null));
        for (Prices prices : List.of(Prices.NONE, new Prices(0.05, 0.006, "EUR"))) {
            for (RunHistory hist : List.of(history(9), history(0))) {
                for (HistoryView.PredictForm form : forms) {
                    SameBytes.assertSame(CodeHistoryView.render(hist, json, form, prices),
                            HistoryView.render(hist, json, form, prices), prices + " " + hist.runs().size() + " " + form);
                }
            }
        }
    }

    @Test
    void escapesNamesKeysAndTypedText() {
        String jobs = HistoryView.jobs(jobs());
        assertFalse(jobs.contains("<script>"), jobs);
        assertTrue(jobs.contains("data-job=\"key &lt;script&gt;"), "a job key in an attribute");
        assertTrue(jobs.contains("<code>com.x.Main&lt;script&gt;"), "a program");
        String page = HistoryView.render(history(9), "{}", new HistoryView.PredictForm("1GB\"><script>", null,
                "not a size: " + EVIL), Prices.NONE);
        assertFalse(page.contains("<script>"), page);
        assertTrue(page.contains("value=\"1GB&quot;&gt;&lt;script&gt;\""), "the typed size in the form");
        assertTrue(page.contains("<p class=\"warn\" id=\"predict-error\">not a size: &lt;script&gt;"), "the error");
        String predicted = HistoryView.render(history(9), "{}", new HistoryView.PredictForm("5g", prediction(false),
                null), Prices.NONE);
        assertTrue(predicted.contains("<td>job #1: map &lt;script&gt;"), "a key stage's name");
    }
}
