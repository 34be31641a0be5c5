package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.StreamingTotals;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppEfficiency;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppHeader;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The application page from app.jte (and its history button from historyLink.jte) is the page the code wrote, byte
 * for byte, and names, users, versions and configuration keys and values are escaped.
 */
class AppTemplateTest {
    private static final String EVIL = TaskPages.EVIL;
    private static final long START = 1_700_000_000_000L;

    static AppHeader header(String name, AppFilter.Status status, String jobKey, String severity) {
        boolean running = status == AppFilter.Status.RUNNING;
        return new AppHeader(1, "app-1 " + EVIL, running ? null : "2", name, "ann " + EVIL, "3.5.1" + EVIL, START,
                running ? 0 : START + 3_600_000, START + 60_000, 3_600_000, !running, status, 12, 2, 30, 1, 12_345,
                17, 40, 9_000_000, 8_000_000, 7_000_000_000L, 400_000, 1L << 33, 1L << 31, 1L << 30, 1L << 29, 1L << 40,
                1L << 20, 5_000, 3, severity, jobKey,
                running ? null : new AppEfficiency(10.5, 4, 6.5, 0.5, 40, 20.0, 20.0, 1, 61_000));
    }

    /** Key settings set and not (hostile values), hostile keys, every scope, an interactive session's marks. */
    static Map<String, Map<String, String>> config(boolean interactive) {
        Map<String, String> spark = new LinkedHashMap<>();
        spark.put("spark.master", "yarn " + EVIL);
        spark.put("spark.executor.memory", "8g");
        spark.put("spark.sql.shuffle.partitions", "400");
        spark.put("spark.key." + EVIL, "value " + EVIL);
        if (interactive) {
            spark.put("spark.repl.class.uri", "spark://x");
        }
        Map<String, Map<String, String>> config = new LinkedHashMap<>();
        config.put("spark", spark);
        config.put("jvm", Map.of("java.version", "17 " + EVIL));
        config.put("system", Map.of("user.dir", "/home/" + EVIL));
        config.put("hadoop", Map.of("fs.defaultFS", "hdfs://nn:8020"));
        config.put("other", Map.of("not.listed", "x"));
        return config;
    }

    static List<StreamingQuerySummary> streamingRuns() {
        StreamingTotals totals = StreamingTotals.builder().batches(10).inputRows(1_000).batchDurationMs(5_000)
                .lastBatchEndTime(START + 50_000).build();
        return List.of(
                StreamingQuerySummary.builder().queryId("q-1 " + EVIL).runId("r1").name("events " + EVIL)
                        .status(StreamingQuerySummary.Status.STOPPED).triggerKind("ProcessingTime")
                        .triggerIntervalMs(1_000).totals(totals).build(),
                StreamingQuerySummary.builder().queryId("q-1 " + EVIL).runId("r2").name("events " + EVIL)
                        .status(StreamingQuerySummary.Status.FAILED).exception("boom " + EVIL).totals(totals).build(),
                StreamingQuerySummary.builder().queryId("q-2").runId("r3").build());
    }

    /** Named, unnamed and hostile; with a job key, a recurring job without one, an interactive session; running. */
    static List<AppDetail> details() {
        var stages = StageTableTemplateTest.stages(12);
        var ops = StageTableTemplateTest.operators();
        var findings = DiagnosisViewTest.FINDINGS;
        return List.of(
                new AppDetail(header("ETL " + EVIL + " naïve —", AppFilter.Status.COMPLETE, "job " + EVIL, "HIGH"),
                        config(false), stages, findings, ops),
                new AppDetail(header(null, AppFilter.Status.COMPLETE, null, "OK"), config(false), List.of(),
                        List.of(), Map.of()),
                new AppDetail(header("", AppFilter.Status.RUNNING, null, "LOW"), config(true), stages, findings, ops),
                new AppDetail(header("shell " + EVIL, AppFilter.Status.INCOMPLETE, null, null), Map.of(), stages,
                        List.of(), Map.of()));
    }

    @Test
    void sameBytesAsTheCodeForEveryShapeOfPage() {
        for (AppDetail d : details()) {
            for (String shs : new String[] {null, "http://shs:18080/", "http://x/\"><script>"}) {
                for (List<StreamingQuerySummary> runs : List.of(List.<StreamingQuerySummary>of(), streamingRuns())) {
                    for (Prices prices : List.of(Prices.NONE, new Prices(0.05, 0.006, "EUR"))) {
                        SameBytes.assertSame(CodeAppView.render(d, runs, shs, StageTableView.StageSort.DURATION, true, 7,
                                        prices),
                                AppView.render(d, runs, shs, StageTableView.StageSort.DURATION, true, 7, prices),
                                d.header().name() + " " + shs + " " + runs.size() + " " + prices);
                    }
                }
            }
        }
        SameBytes.assertSame(CodeAppView.render(details().get(0), null, StageTableView.StageSort.ID, false),
                AppView.render(details().get(0), null, StageTableView.StageSort.ID, false), "sorted by id");
    }

    @Test
    void escapesNamesUsersAndConfiguration() {
        String html = AppView.render(details().get(0), streamingRuns(), "http://x/\"><script>",
                StageTableView.StageSort.ID, false, 7, Prices.NONE);
        assertFalse(html.contains("<script>"), html);
        assertTrue(html.contains("<span id=\"app-title\">ETL &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;"
                + " na&#239;ve &#8212;</span>"), "the name as text, non-ASCII as references");
        assertTrue(html.contains("<span class=\"user\">ann &lt;script&gt;"), "the user as text");
        assertTrue(html.contains("<tr><th>spark.master</th><td>yarn &lt;script&gt;"), "a key setting's value");
        assertTrue(html.contains("<tr><th>spark.executor.cores</th><td class=\"muted\">(default)</td></tr>"), html);
        assertTrue(html.contains("<td>spark.key.&lt;script&gt;"), "a configuration key");
        assertTrue(html.contains("title=\"job &lt;script&gt;"), "the job key in an attribute");
        assertTrue(html.contains("href=\"http://x/&quot;&gt;&lt;script&gt;/history/"), "the History Server's address");
        assertTrue(html.contains("All configuration (8 entries)"), html);
        String shell = AppView.render(details().get(2), null, StageTableView.StageSort.ID, false);
        assertTrue(shell.contains("id=\"history-none\""), "an interactive session has no history");
    }
}
