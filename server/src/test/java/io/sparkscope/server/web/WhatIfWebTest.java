package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.server.web.page.Html;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.sparkscope.server.web.WhatIfFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /apps/{id}/what-if} and {@code /api/v1/apps/{id}/what-if} over HTTP: shapes, routes, 404, 400, escaping. */
class WhatIfWebTest {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ROW = Pattern.compile("<tr(?: class=\"actual\")? data-executors=\"(\\d+)\" "
            + "data-slots=\"(\\d+)\" data-ms=\"(\\d+)\">");

    static JsonNode api(String path, int expectedStatus) throws Exception {
        var r = get(path);
        assertEquals(expectedStatus, r.status(), path + ": " + r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), path);
        return JSON.readTree(r.body());
    }

    static String page(String path) {
        var r = get(path);
        assertEquals(200, r.status(), path + ": " + r.body());
        return r.body();
    }

    static List<Long> executors(JsonNode w) {
        List<Long> out = new ArrayList<>();
        w.get("curve").forEach(p -> out.add(p.get("executors").asLong()));
        return out;
    }

    /** The table rows as "executors/slots/ms". */
    static List<String> tableRows(String html) {
        List<String> out = new ArrayList<>();
        Matcher m = ROW.matcher(html);
        while (m.find()) {
            out.add(m.group(1) + "/" + m.group(2) + "/" + m.group(3));
        }
        return out;
    }

    static List<String> apiRows(JsonNode w) {
        List<String> out = new ArrayList<>();
        w.get("curve").forEach(p -> out.add(p.get("executors").asLong() + "/" + p.get("slots").asLong() + "/"
                + p.get("estimatedWallMs").asLong()));
        return out;
    }

    @Test
    void apiGivesTheCurveTheCriticalPathTheIdealAndTheModelError() throws Exception {
        JsonNode w = api("/api/v1/apps/app-wi-cluster/what-if", 200);
        assertEquals("app-wi-cluster", w.get("appId").asText());
        assertEquals("executors", w.get("unit").asText());
        assertFalse(w.get("localMode").asBoolean());
        assertEquals(4, w.get("actualExecutors").asInt());
        assertEquals(2, w.get("coresPerExecutor").asInt());
        assertEquals(8, w.get("actualSlots").asInt());
        assertEquals(List.of(1L, 2L, 3L, 4L, 6L, 8L, 12L, 16L), executors(w), "25 %–400 % of 4 executors");
        int actual = 0;
        long previous = Long.MAX_VALUE;
        for (JsonNode p : w.get("curve")) {
            actual += p.get("actual").asBoolean() ? 1 : 0;
            long ms = p.get("estimatedWallMs").asLong();
            assertTrue(ms <= previous, "more executors never take longer: " + w.get("curve"));
            assertTrue(ms >= w.get("criticalPathMs").asLong(), "no count beats the critical path");
            previous = ms;
        }
        assertEquals(1, actual);
        assertEquals(w.get("estimatedActualMs").asLong() - w.get("actualDurationMs").asLong(), w.get("errorMs").asLong());
        assertTrue(w.get("idealMs").asLong() <= w.get("estimatedActualMs").asLong());
        assertEquals(900_000, w.get("actualDurationMs").asLong());
        assertFalse(w.get("incompleteTaskData").asBoolean(), "the synthetic runs keep every task");
    }

    @Test
    void pageHasTheChartDataTheSameTableAndALinkFromTheAppPage() throws Exception {
        String html = page("/apps/app-wi-cluster/what-if");
        JsonNode w = api("/api/v1/apps/app-wi-cluster/what-if", 200);
        assertTrue(html.contains("<canvas id=\"whatif-chart\""), html);
        assertTrue(html.contains("/static/whatif.js"));
        assertEquals(apiRows(w), tableRows(html), "the table is the API's curve");
        assertTrue(html.contains("id=\"model-error\" data-error-ms=\"" + w.get("errorMs").asLong() + "\""), html);
        assertTrue(html.contains("id=\"critical-path-ms\""));
        assertTrue(html.contains("id=\"ideal-ms\""));
        assertFalse(html.contains("id=\"incomplete-tasks\""));
        // The chart's data is the API's answer, embedded.
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"whatif-data\">(.*?)</script>",
                Pattern.DOTALL).matcher(html);
        assertTrue(m.find());
        assertEquals(w, JSON.readTree(m.group(1)));

        String app = page("/apps/app-wi-cluster");
        assertTrue(app.contains("id=\"whatif-link\" href=\"/apps/app-wi-cluster/what-if\""), app);
        assertFalse(app.contains("whatif-data"), "the app page does not simulate");
        // The static script is served.
        assertEquals(200, get("/static/whatif.js").status());
    }

    @Test
    void localModeScalesCoresAndAsksForOtherCounts() throws Exception {
        JsonNode w = api("/api/v1/apps/app-wi-local/what-if", 200);
        assertEquals("cores", w.get("unit").asText());
        assertEquals(4, w.get("actualExecutors").asInt(), "local[4]");
        JsonNode asked = api("/api/v1/apps/app-wi-local/what-if?executors=1,%203,16&order=launch_order", 200);
        assertEquals(List.of(1L, 3L, 4L, 16L), executors(asked), "the counts asked for and the actual one");
        assertEquals("LAUNCH_ORDER", asked.get("taskOrder").asText());
        assertEquals(w.get("actualDurationMs"), asked.get("actualDurationMs"));
        String html = page("/apps/app-wi-local/what-if?executors=1,3,16");
        assertEquals(4, tableRows(html).size());
        assertTrue(html.contains("name=\"executors\" size=\"28\" placeholder=\"e.g. 2,4,16,64\" value=\"1,3,16\""),
                "the form keeps what was asked");
    }

    @Test
    void incompleteTaskDataIsSaid() throws Exception {
        String id = WhatIfFixture.partialAppId();
        JsonNode w = api("/api/v1/apps/" + id + "/what-if", 200);
        assertTrue(w.get("incompleteTaskData").asBoolean(), w.toString());
        assertTrue(w.get("reconstructedTasks").asLong() > 0);
        boolean caveat = false;
        for (JsonNode c : w.get("caveats")) {
            caveat |= c.get("code").asText().equals("TASKS_RECONSTRUCTED")
                    && c.get("message").asText().contains("rebuilt from their stage's quantiles");
        }
        assertTrue(caveat, w.get("caveats").toString());
        String html = page("/apps/" + id + "/what-if");
        assertTrue(html.contains("id=\"incomplete-tasks\""), html);
        assertTrue(html.contains(Fmt.count(w.get("reconstructedTasks").asLong()) + " of the "
                + Fmt.count(w.get("reconstructedTasks").asLong() + w.get("keptTasks").asLong())
                + " task durations replayed here were rebuilt"), html);
        assertTrue(html.contains("<li data-code=\"TASKS_RECONSTRUCTED\">"));
    }

    @Test
    void attemptsResolveAsOnTheAppPage() throws Exception {
        assertEquals("2", api("/api/v1/apps/app-wi-yarn/what-if", 200).get("attemptId").asText(), "newest attempt");
        JsonNode first = api("/api/v1/apps/app-wi-yarn/1/what-if", 200);
        assertEquals("1", first.get("attemptId").asText());
        assertEquals(2, first.get("actualExecutors").asInt());
        assertEquals(4, api("/api/v1/apps/app-wi-yarn/2/what-if", 200).get("actualExecutors").asInt());
        assertTrue(page("/apps/app-wi-yarn/1/what-if").contains("app-wi-yarn/1"));
        assertTrue(page("/apps/app-wi-yarn/1").contains("href=\"/apps/app-wi-yarn/1/what-if\""));
    }

    @Test
    void unknownApplicationsAre404AndBadParametersAre400() throws Exception {
        assertEquals(404, api("/api/v1/apps/app-nope/what-if", 404).get("status").asInt());
        api("/api/v1/apps/app-wi-yarn/7/what-if", 404);
        var page = get("/apps/app-nope/what-if");
        assertEquals(404, page.status());
        assertTrue(page.body().contains("no application app-nope"), page.body());

        for (String q : List.of("executors=abc", "executors=0", "executors=4,,x", "executors=200000", "executors=,",
                "executors=" + "1,".repeat(25) + "1")) {
            JsonNode e = api("/api/v1/apps/app-wi-local/what-if?" + q, 400);
            assertEquals("executors", e.get("parameter").asText(), q);
        }
        assertEquals("order", api("/api/v1/apps/app-wi-local/what-if?order=random", 400).get("parameter").asText());
        assertEquals(400, get("/apps/app-wi-local/what-if?executors=-3").status());
        assertEquals(400, get("/api/v1/apps/app%20x/what-if").status(), "not an application id");
    }

    @Test
    void namesAreEscaped() {
        String html = page("/apps/app-wi-xss/what-if");
        assertFalse(html.contains(WebFixture.XSS1), "raw script tag in the page");
        assertTrue(html.contains(Html.escape(WebFixture.XSS1)));
        assertFalse(html.contains("<script>alert"), "not even inside the JSON block");
    }
}
