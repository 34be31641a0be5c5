package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.page.Html;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /api/v1/predict} and the history page's prediction form over four stored runs of one name whose first stage
 * takes 1 s + 4 s per GB of input (the key stage), the others a constant 2 s and 0.5 s, plus 3 s of driver time.
 */
class WebPredictTest {
    private static final long GB = 1L << 30;
    /** A name that needs escaping everywhere it is shown. */
    static final String NAME = "nightly <etl> & \"co\"";
    static final String COLD = "cold-start job";
    private static OwnServer server;
    private static String base;

    @BeforeAll
    static void start() {
        DataSource ds = WebFixture.newDatabase();
        for (int gb = 1; gb <= 4; gb++) {
            WebFixture.write(ds, run("app-predict-" + gb, NAME, WebFixture.NOW - (10 - gb) * WebFixture.DAY, gb * GB,
                    1_000 + 4_000L * gb, 2_000, 500));
        }
        // A recurring job whose first run was slow (cold caches): its key stage took 30 s where the line says 5 s.
        for (int gb = 1; gb <= 5; gb++) {
            WebFixture.write(ds, run("app-cold-" + gb, COLD, WebFixture.NOW - (20 - gb) * WebFixture.DAY, gb * GB,
                    gb == 1 ? 30_000 : 1_000 + 4_000L * gb, 2_000, 500));
        }
        // A run of another name that measured no input: nothing to train on.
        WebFixture.write(ds, run("app-noinput", "no-input job", WebFixture.NOW - WebFixture.DAY, 0, 1_000, 1_000, 1_000));
        server = OwnServer.over(ds);
        base = server.base();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /**
     * A stored-shape run: one job of three stages back to back (times {@code stageMs}), the first reading
     * {@code inputBytes}, 1.5 s of driver time before and after.
     */
    static AppSnapshot run(String appId, String name, long start, long inputBytes, long... stageMs) {
        long total = 3_000;
        for (long ms : stageMs) {
            total += ms;
        }
        var spec = SnapshotBuilder.syntheticSpec(appId, name, "alice", start, total);
        AppSnapshot s = SnapshotBuilder.synthetic(new SnapshotBuilder.SyntheticSpec(spec.appId(), null, name, "alice",
                start, total, true, spec.conf(), 1, stageMs.length, 4, null, 0, appId.hashCode()));
        List<StageSummary> stages = new ArrayList<>();
        long t = start + 1_500;
        for (int i = 0; i < stageMs.length; i++) {
            StageSummary o = s.stages().get(i);
            long[] sums = new long[TaskMetric.count()];
            for (TaskMetric m : TaskMetric.values()) {
                sums[m.ordinal()] = o.totals().get(m);
            }
            sums[TaskMetric.INPUT_BYTES.ordinal()] = i == 0 ? inputBytes : 0;
            stages.add(o.toBuilder().name("stage " + i + " at Etl.scala:" + (10 + i)).submissionTime(t)
                    .completionTime(t + stageMs[i]).firstTaskLaunchedTime(t + 1).lastTaskFinishedTime(t + stageMs[i] - 1)
                    .totals(StageTotals.of(sums)).build());
            t += stageMs[i];
        }
        JobSummary j = s.jobs().get(0);
        JobSummary job = j.toBuilder().submissionTime(start + 1_500).completionTime(t).build();
        return SnapshotBuilder.copy(s).jobs(List.of(job)).stages(stages).build();
    }

    private static JsonNode json(String path, int status) throws Exception {
        var r = WebFixture.getAt(base, path);
        assertEquals(status, r.status(), path + ": " + r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), path);
        return WebApiTest.JSON.readTree(r.body());
    }

    @Test
    void linearKeyStageIsPredictedWithinOnePercent() throws Exception {
        JsonNode p = json("/api/v1/predict?name=" + Urls.enc(NAME) + "&inputBytes=" + 6 * GB, 200);
        // 25 s key stage + 2 s + 0.5 s + 3 s driver time, what a run at 6 GB would take.
        long expected = 30_500;
        assertEquals(expected, p.get("predictedMs").asDouble(), expected * 0.01, p.toString());
        assertEquals(NAME, p.get("name").asText());
        assertEquals(4, p.get("trainingRuns").asInt());
        assertEquals(6 * GB, p.get("inputBytes").asLong());
        assertEquals(1, p.get("keyStages").size());
        JsonNode key = p.get("keyStages").get(0);
        assertEquals("stage 0 at Etl.scala:10", key.get("name").asText());
        assertEquals(1.0, key.get("fit").get("r2").asDouble(), 1e-9);
        assertEquals(4_000.0 / GB, key.get("fit").get("slopeMsPerByte").asDouble(), 1e-12);
        assertEquals(1_000, key.get("fit").get("interceptMs").asDouble(), 1);
        assertEquals(25_000, key.get("predictedMs").asDouble(), 250);
        assertEquals(2, p.get("otherStages").size());
        assertTrue(p.get("reliable").asBoolean(), p.get("warnings").toString());
        assertEquals(0, p.get("warnings").size());

        // Far beyond the runs: predicted, but said to be an extrapolation.
        JsonNode far = json("/api/v1/predict?name=" + Urls.enc(NAME) + "&inputBytes=" + 100 * GB, 200);
        assertFalse(far.get("reliable").asBoolean());
        assertEquals("EXTRAPOLATION", far.get("warnings").get(0).get("code").asText());
        assertTrue(far.get("warnings").get(0).get("message").asText().contains("4.0 GiB")
                || far.get("warnings").get(0).get("message").asText().contains("GB"), far.toString());
    }

    @Test
    void aSlowColdFirstRunIsLeftOutAndNamed() throws Exception {
        JsonNode p = json("/api/v1/predict?name=" + Urls.enc(COLD) + "&inputBytes=" + 6 * GB, 200);
        assertEquals(4, p.get("trainingRuns").asInt(), "the four warm runs");
        assertEquals(1, p.get("leftOut").size(), p.toString());
        JsonNode cold = p.get("leftOut").get(0);
        assertEquals("app-cold-1", cold.get("appId").asText());
        assertEquals(GB, cold.get("inputBytes").asLong());
        assertEquals(10_500, cold.get("expectedMs").asDouble(), 100, "what the warm runs predict for it");
        // the warm runs' line, as if the cold run had never happened: 25 s + 2 s + 0.5 s + 3 s at 6 GB
        assertEquals(30_500, p.get("predictedMs").asDouble(), 305, p.toString());
        assertTrue(p.get("reliable").asBoolean(), "leaving a run out is no reason to doubt the number");
        assertEquals("OUTLIER_RUNS", p.get("warnings").get(0).get("code").asText());
        String page = WebFixture.getAt(base, "/history?name=" + Urls.enc(COLD) + "&inputBytes=6GB").body();
        assertTrue(page.contains("data-code=\"OUTLIER_RUNS\""), page);
        assertTrue(page.contains("app-cold-1 (1.0 GiB) took 35.5 s where the other runs predict 10.5 s"), page);
        assertTrue(page.contains("From 4 runs with inputs"), "counts with their noun: " + page);
    }

    @Test
    void badOrMissingParametersAre400NamingThem() throws Exception {
        String n = "name=" + Urls.enc(NAME);
        for (String[] c : new String[][]{{"/api/v1/predict?inputBytes=100", "name"},
                {"/api/v1/predict?" + n, "inputBytes"}, {"/api/v1/predict?" + n + "&inputBytes=", "inputBytes"},
                {"/api/v1/predict?" + n + "&inputBytes=ten", "inputBytes"},
                {"/api/v1/predict?" + n + "&inputBytes=0", "inputBytes"},
                {"/api/v1/predict?" + n + "&inputBytes=-5", "inputBytes"},
                {"/api/v1/predict?" + n + "&inputBytes=1e9", "inputBytes"},
                {"/api/v1/predict?" + n + "&inputBytes=99999999999999999999", "inputBytes"}}) {
            JsonNode e = json(c[0], 400);
            assertEquals(c[1], e.get("parameter").asText(), c[0]);
            assertTrue(e.get("error").asText().contains(c[1]), c[0]);
        }
        // Digit-group separators are fine.
        assertEquals(200, WebFixture.getAt(base, "/api/v1/predict?" + n + "&inputBytes=1_000_000_000").status());
        JsonNode unit = json("/api/v1/predict?" + n + "&inputBytes=5%20parsecs", 400);
        assertEquals("inputBytes", unit.get("parameter").asText());
        assertTrue(unit.get("error").asText().contains("512m, 1GB or 10 GiB"), unit.toString());
    }

    /**
     * The history page shows the newest runs up to {@code ?runs=} (100 unless asked) and links to more when it is
     * full; a count it cannot show is a 400 naming the parameter.
     */
    @Test
    void theHistoryPageShowsTheNewestRunsAndLinksToMore() throws Exception {
        String n = "/history?name=" + Urls.enc(COLD);
        String all = WebFixture.getAt(base, n).body();
        assertTrue(all.contains("5 runs, oldest first"), all);
        assertFalse(all.contains("id=\"more-runs\""), "every run is shown: no link to more");
        String three = WebFixture.getAt(base, n + "&runs=3").body();
        assertTrue(three.contains("3 runs (the newest:"), three);
        assertTrue(three.contains("href=\"/history?name=" + Html.escape(Urls.enc(COLD)) + "&amp;runs=500\""),
                "links to the most the page shows: " + three);
        assertFalse(three.contains("app-cold-2"), "the two oldest are not shown");
        assertTrue(three.contains("app-cold-3") && three.contains("app-cold-5"));
        for (String bad : new String[]{"0", "501", "many"}) {
            WebFixture.Response r = WebFixture.getAt(base, n + "&runs=" + bad);
            assertEquals(400, r.status(), bad);
            assertTrue(r.body().contains("runs"), r.body());
        }
    }

    @Test
    void sizesCanBeTypedWithUnits() throws Exception {
        String n = "name=" + Urls.enc(NAME);
        assertEquals(GB, json("/api/v1/predict?" + n + "&inputBytes=1GB", 200).get("inputBytes").asLong());
        assertEquals(512L << 20, json("/api/v1/predict?" + n + "&inputBytes=512m", 200).get("inputBytes").asLong());
        assertEquals(10 * GB, json("/api/v1/predict?" + n + "&inputBytes=10%20GiB", 200).get("inputBytes").asLong());
        assertEquals(3 * GB / 2, json("/api/v1/predict?" + n + "&inputBytes=1.5g", 200).get("inputBytes").asLong());
        String page = WebFixture.getAt(base, "/history?" + n + "&inputBytes=6%20GB").body();
        assertTrue(page.contains("data-ms=\"30500\""), "the form takes the same sizes: " + page);
        assertTrue(page.contains("value=\"6 GB\""), "what was typed stays in the form");
    }

    @Test
    void unknownNameIs404AndRunsWithoutInputAre422() throws Exception {
        assertTrue(json("/api/v1/predict?name=none-such&inputBytes=1000", 404).get("error").asText().contains("none-such"));
        assertTrue(json("/api/v1/predict?name=no-input%20job&inputBytes=1000", 422).get("error").asText()
                .contains("input bytes"));
    }

    @Test
    void historyPageFormShowsPredictionAndWarningsEscaped() {
        var plain = WebFixture.getAt(base, "/history?name=" + Urls.enc(NAME));
        assertEquals(200, plain.status());
        assertTrue(plain.body().contains("Predict run time for input size"));
        assertTrue(plain.body().contains("name=\"inputBytes\""));
        assertTrue(plain.body().contains("name=\"job\" value=\"nightly &lt;etl&gt; &amp; &quot;co&quot; | "),
                "the hidden job key (its name part) escaped");
        assertFalse(plain.body().contains("id=\"predict-result\""));

        var r = WebFixture.getAt(base, "/history?name=" + Urls.enc(NAME) + "&inputBytes=" + 100 * GB);
        assertEquals(200, r.status());
        String b = r.body();
        assertTrue(b.contains("id=\"predict-result\""), b);
        assertTrue(b.contains("data-ms=\""), b);
        assertTrue(b.contains("data-code=\"EXTRAPOLATION\""), b);
        assertTrue(b.contains("stage 0 at Etl.scala:10"), b);
        assertFalse(b.contains("<etl>"), "the name is never markup");

        var six = WebFixture.getAt(base, "/history?name=" + Urls.enc(NAME) + "&inputBytes=" + 6 * GB).body();
        assertTrue(six.contains("data-ms=\"30500\""), six);
        assertFalse(six.contains("id=\"predict-warnings\""));

        var bad = WebFixture.getAt(base, "/history?name=" + Urls.enc(NAME) + "&inputBytes=%3Cb%3E");
        assertEquals(200, bad.status());
        assertTrue(bad.body().contains("id=\"predict-error\""));
        assertTrue(bad.body().contains("&lt;b&gt;"));
        assertFalse(bad.body().contains("<b>"));
    }
}
