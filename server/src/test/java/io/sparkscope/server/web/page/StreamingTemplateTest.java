package io.sparkscope.server.web.page;

import io.sparkscope.core.event.StreamingProgress;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.StreamingTotals;
import io.sparkscope.server.web.model.QueryPage;
import io.sparkscope.store.query.AppFilter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Structured Streaming query's page (query.jte) and the application page's query list (queryList.jte) are the
 * pages the code wrote, byte for byte, and query names, run ids, errors, sources, offsets, metrics and operator
 * names are escaped (the embedded JSON goes through the same script-safe writer as before).
 */
class StreamingTemplateTest {
    private static final String EVIL = TaskPages.EVIL;
    private static final long START = 1_700_000_000_000L;

    /** Batches behind and not, with and without state, watermarks unknown, not yet and set, hostile sources. */
    static List<StreamingBatch> batches(long first, int n, boolean state) {
        List<StreamingBatch> out = new ArrayList<>();
        for (long i = first; i < first + n; i++) {
            Map<String, String> metrics = new LinkedHashMap<>();
            metrics.put("avgOffsetsBehindLatest", "12.5");
            metrics.put("key " + EVIL, "value " + EVIL);
            var source = new StreamingProgress.Source("KafkaV2[Subscribe[" + EVIL + "]]", i % 2 == 0 ? null
                    : "{\"t\":{\"0\":" + i + "}}", "{\"t\":{\"0\":" + (i + 1) + "}} " + EVIL, null, 10 * i,
                    i % 3 == 0 ? -1 : 250.5 * i, 3.25 * i, i % 4 == 0 ? Map.of() : metrics);
            List<StreamingProgress.StateOperator> ops = !state ? List.of() : List.of(
                    new StreamingProgress.StateOperator("stateStoreSave " + EVIL, 100 * i, 5, -1, 1, 1, 1, 1L << 20, 3,
                            200, 200, Map.of()),
                    new StreamingProgress.StateOperator(null, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, Map.of()));
            out.add(StreamingBatch.builder().batchId(i).timestamp(START + 1_000 * i).durationMs(900 + i)
                    .numInputRows(10 * i).inputRowsPerSecond(i % 5 == 0 ? -1 : 300.0 * i)
                    .processedRowsPerSecond(i % 2 == 0 ? 50.0 * i : 900.0 * i).numOutputRows(i % 3 == 0 ? -1 : i)
                    .watermark(i % 3 == 0 ? -1 : i % 3 == 1 ? 0 : START + i).stateOperators(ops)
                    .sources(List.of(source)).build());
        }
        return out;
    }

    static StreamingQuerySummary run(String runId, String name, StreamingQuerySummary.Status status,
                                     List<StreamingBatch> batches, long batchesReported, long trigger) {
        StreamingTotals totals = StreamingTotals.builder().batches(batchesReported).inputRows(12_345)
                .batchDurationMs(batchesReported * 950).maxBatchDurationMs(4_000).lastBatchEndTime(START + 90_000)
                .rowsDroppedByWatermark(batchesReported > 60 ? 17 : 0)
                .longestBehind(batchesReported > 60 ? new StreamingTotals.Streak(4, 3, START, START + 5, 1, 1)
                        : StreamingTotals.Streak.NONE).build();
        return StreamingQuerySummary.builder().queryId("q-1 " + EVIL).runId(runId).name(name).status(status)
                .startTime(START).endTime(status == StreamingQuerySummary.Status.RUNNING ? -1 : START + 100_000)
                .exception(status == StreamingQuerySummary.Status.FAILED ? "boom " + EVIL + "\n\tat x.y(Z.java:1)"
                        + "x".repeat(300) : null)
                .triggerKind(trigger < -1 ? null : "ProcessingTime").triggerIntervalMs(trigger)
                .sinkDescription(trigger == 0 ? null : "ForeachBatchSink " + EVIL).totals(totals)
                .recentBatches(batches).build();
    }

    static List<Finding> findings() {
        return List.of(Finding.builder("StreamingFallsBehind", Severity.HIGH).title("Falls behind " + EVIL)
                        .message("batches " + EVIL).recommendation("add " + EVIL).detail("queryId", "q-1").build(),
                Finding.builder("StateGrows " + EVIL, Severity.LOW).title("State grows").message("m")
                        .recommendation("r").build());
    }

    /** Pages: two runs (one failed), a running one (live), no batches, batch limits, no findings. */
    static List<QueryPage> pages() {
        List<QueryPage> out = new ArrayList<>();
        for (AppFilter.Status appStatus : List.of(AppFilter.Status.COMPLETE, AppFilter.Status.RUNNING)) {
            var header = AppTemplateTest.header(appStatus == AppFilter.Status.RUNNING ? "" : "ETL " + EVIL, appStatus,
                    null, "LOW");
            out.add(new QueryPage(header, "q-1 " + EVIL, List.of(
                    run("r1 " + EVIL, "clicks " + EVIL, StreamingQuerySummary.Status.FAILED, batches(0, 30, true), 80,
                            1_000),
                    run("r2", null, appStatus == AppFilter.Status.RUNNING ? StreamingQuerySummary.Status.RUNNING
                            : StreamingQuerySummary.Status.STOPPED, batches(30, 40, false), 40, 0)),
                    findings(), QueryPage.DEFAULT_BATCHES));
            out.add(new QueryPage(header, "q-2", List.of(run("r3", " ", StreamingQuerySummary.Status.STOPPED,
                    List.of(), 0, -5)), List.of(), Integer.MAX_VALUE));
            out.add(new QueryPage(header, "q-3", List.of(run("r4", "n", StreamingQuerySummary.Status.RUNNING,
                    batches(0, 70, true), 200, 60_000)), findings().subList(1, 2), 20));
        }
        return out;
    }

    @Test
    void sameBytesAsTheCodeForEveryShapeOfPage() {
        String json = "{\"name\":\"</script><script>alert('x')</script>\",\"s\":\"naïve — \\u2028\"}";
        for (QueryPage q : pages()) {
            SameBytes.assertSame(CodeStreamingView.render(q, json, 7), StreamingView.render(q, json, 7), q.queryId());
            List<StreamingQuerySummary> runs = new ArrayList<>();
            pages().forEach(p -> runs.addAll(p.runs()));
            Html code = new Html();
            CodeStreamingView.queryList(code, q.header(), runs);
            Html template = new Html();
            StreamingView.queryList(template, q.header(), runs);
            SameBytes.assertSame(code.toString(), template.toString(), "query list");
        }
    }

    @Test
    void escapesNamesErrorsSourcesAndMetrics() {
        String json = "{\"name\":\"</script><script>alert('x')</script>\"}";
        String html = StreamingView.render(pages().get(0), json, 7);
        assertFalse(html.contains("<script>alert"), html);
        assertTrue(html.contains("<span id=\"query-title\">clicks &lt;script&gt;"), "the query's name");
        assertTrue(html.contains("<td class=\"run-id\">r1 &lt;script&gt;"), "a run id");
        assertTrue(html.contains("<pre>boom &lt;script&gt;"), "a run's error");
        assertTrue(html.contains("<td class=\"source\">KafkaV2[Subscribe[&lt;script&gt;"), "a source");
        assertTrue(html.contains("<span class=\"metric\">key &lt;script&gt;"), "a source metric's key");
        String state = StreamingView.render(pages().get(2), json, 7);
        assertFalse(state.contains("<script>alert"), state);
        assertTrue(state.contains("<td>0 stateStoreSave &lt;script&gt;"), "a state operator's name");
        assertTrue(state.contains("data-heuristic=\"StateGrows &lt;script&gt;"), "a heuristic's name in an attribute");
        assertTrue(html.contains("id=\"query-data\" data-live-region>{\"name\":\"\\u003c/script"), "the JSON");
    }
}
