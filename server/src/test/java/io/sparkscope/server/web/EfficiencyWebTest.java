package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.report.EfficiencyText;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.sparkscope.server.web.EfficiencyFixture.get;
import static io.sparkscope.server.web.EfficiencyFixture.priced;
import static io.sparkscope.server.web.EfficiencyFixture.unpriced;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The efficiency figures and their cost on every page and in the API, over HTTP: the operator's prices change what
 * the pages say (same database, one server with prices and one without), an application without figures says "not
 * computed", and search sorts and filters by idle core-hours.
 */
class EfficiencyWebTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double EPS = 1e-5;

    private static String page(String url) {
        EfficiencyFixture.Answer a = get(url);
        assertEquals(200, a.status(), url + ": " + a.body());
        return a.body();
    }

    private static JsonNode api(String url) throws Exception {
        return JSON.readTree(page(url));
    }

    /** The page's numeric character references back to characters (the pages escape everything non-ASCII). */
    static final class Html {
        static String unescapeForTest(String s) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("&#(\\d+);").matcher(s);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(
                        new String(Character.toChars(Integer.parseInt(m.group(1))))));
            }
            m.appendTail(out);
            return out.toString().replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">");
        }
    }

    private static String between(String html, String id) {
        int at = html.indexOf("id=\"" + id + "\"");
        assertTrue(at >= 0, "no #" + id + " in the page");
        return html.substring(at, html.indexOf("</p>", at));
    }

    @Test
    void pricesTurnTheFiguresIntoACostWithItsFormula() throws Exception {
        Efficiency e = Efficiency.of(EfficiencyFixture.snapshot("app-eff-most"));
        double cost = e.coreHoursAllocated() * 0.05 + e.gbHoursAllocated() * 0.006;
        double wasted = e.coreHoursIdle() * 0.05 + e.gbHoursWasted() * 0.006;

        String without = page(unpriced() + "/apps/app-eff-most");
        assertTrue(without.contains("id=\"efficiency-table\""), "figures without prices");
        assertTrue(without.contains(EfficiencyText.hours(e.coreHoursAllocated())));
        assertTrue(without.contains("id=\"cost-how-to\""), "says how to set prices");
        assertTrue(without.contains("--cost-core-hour"), "names the option");
        assertFalse(without.contains("id=\"cost-formula\""));
        assertFalse(without.contains(" EUR</strong>"), "no amount without prices");

        String with = page(priced() + "/apps/app-eff-most");
        String formula = Html.unescapeForTest(between(with, "cost-formula"));
        assertTrue(formula.contains(EfficiencyText.hours(e.coreHoursAllocated()) + " core-h × 0.05 EUR + "
                + EfficiencyText.hours(e.gbHoursAllocated()) + " GB-h × 0.006 EUR = "), formula);
        assertTrue(formula.contains(EfficiencyText.money(cost, "EUR")), formula);
        String waste = Html.unescapeForTest(between(with, "waste-formula"));
        assertTrue(waste.contains(EfficiencyText.hours(e.coreHoursIdle()) + " idle core-h × 0.05 EUR + "
                + EfficiencyText.hours(e.gbHoursWasted()) + " unused GB-h × 0.006 EUR"), waste);
        assertTrue(waste.contains(EfficiencyText.money(wasted, "EUR")), waste);
        assertFalse(with.contains("id=\"cost-how-to\""));

        JsonNode a = api(priced() + "/api/v1/apps/app-eff-most");
        assertEquals(e.coreHoursAllocated(), a.get("efficiency").get("coreHoursAllocated").asDouble(), EPS);
        assertEquals(e.gbHoursWasted(), a.get("efficiency").get("gbHoursWasted").asDouble(), EPS);
        assertEquals(cost, a.get("cost").get("allocated").asDouble(), EPS);
        assertEquals(wasted, a.get("cost").get("wasted").asDouble(), EPS);
        assertEquals("EUR", a.get("cost").get("currency").asText());
        assertTrue(api(unpriced() + "/api/v1/apps/app-eff-most").get("cost").isNull(), "no prices, no cost");
        assertEquals(e.coreHoursAllocated(), api(unpriced() + "/api/v1/apps/app-eff-most").get("efficiency")
                .get("coreHoursAllocated").asDouble(), EPS, "the figures are there without prices");
    }

    @Test
    void anApplicationWithoutFiguresSaysNotComputedRatherThanZero() throws Exception {
        String p = page(priced() + "/apps/app-eff-old");
        assertTrue(p.contains("id=\"efficiency-not-computed\""), "not computed");
        assertTrue(p.contains("reanalyze"), "says how to compute them");
        assertFalse(p.contains("id=\"cost-formula\""));
        JsonNode a = api(priced() + "/api/v1/apps/app-eff-old");
        assertTrue(a.get("efficiency").isNull());
        assertTrue(a.get("cost").isNull());
        String search = page(priced() + "/apps?name=rich");
        assertTrue(search.contains("<dd class=\"waste muted\">not computed</dd>"), "search says so too");
    }

    @Test
    void searchSortsAndFiltersByIdleCoreHours() throws Exception {
        List<String> order = new ArrayList<>();
        for (JsonNode r : api(unpriced() + "/api/v1/apps?sort=waste").get("apps")) {
            order.add(r.get("appId").asText());
        }
        assertEquals(List.of("app-eff-most", "app-eff-some", "app-eff-busy", "app-eff-old"), order);

        double some = Efficiency.of(EfficiencyFixture.snapshot("app-eff-some")).coreHoursIdle();
        JsonNode filtered = api(unpriced() + "/api/v1/apps?sort=waste&minWaste=" + (some - 1e-6));
        assertEquals(2, filtered.get("total").asInt(), filtered.toString());
        assertTrue(filtered.get("apps").get(0).get("cost").isNull(), "no prices");
        JsonNode pricedRows = api(priced() + "/api/v1/apps?sort=waste&minWaste=" + (some - 1e-6));
        assertTrue(pricedRows.get("apps").get(0).get("cost").get("wasted").asDouble() > 0);

        String html = page(priced() + "/apps?sort=waste&minWaste=" + (some - 1e-6));
        assertTrue(html.indexOf("app-eff-most") < html.indexOf("app-eff-some"), "page in the same order");
        assertFalse(html.contains("app-eff-busy"), "filtered out");
        assertTrue(html.contains("class=\"waste-cost\""), "each row's wasted money");
        assertTrue(html.contains("name=\"minWaste\" id=\"f-minWaste\" form=\"filter-form\" size=\"4\" value=\""
                + (some - 1e-6) + "\""), "the filter keeps its value");

        EfficiencyFixture.Answer bad = get(unpriced() + "/api/v1/apps?minWaste=lots");
        assertEquals(400, bad.status());
        assertTrue(bad.body().contains("\"parameter\":\"minWaste\""), bad.body());
    }

    @Test
    void dashboardHistoryAndWhatIfFollowThePrices() throws Exception {
        String dashWithout = page(unpriced() + "/");
        assertTrue(dashWithout.contains("id=\"wasteful\""), "the week's most wasteful");
        assertTrue(dashWithout.indexOf("data-app=\"app-eff-most\"") < dashWithout.indexOf("data-app=\"app-eff-some\""));
        assertTrue(dashWithout.contains("id=\"waste-not-computed\""), "the week's run without figures is counted");
        assertFalse(dashWithout.contains("id=\"waste-total-cost\""));
        String dashWith = page(priced() + "/");
        assertTrue(dashWith.contains("id=\"waste-total-cost\""), "total waste in money");
        assertTrue(dashWith.contains(" EUR"));

        String jobKey = api(unpriced() + "/api/v1/apps/app-eff-most").get("jobKey").asText();
        String historyWithout = page(unpriced() + "/history?job=" + java.net.URLEncoder.encode(jobKey, "UTF-8"));
        assertTrue(historyWithout.contains("Core-hours (idle)"));
        assertTrue(historyWithout.contains("not computed"), "the old run");
        String historyWith = page(priced() + "/history?job=" + java.net.URLEncoder.encode(jobKey, "UTF-8"));
        assertTrue(historyWith.contains("Cost (wasted)"));
        Efficiency e = Efficiency.of(EfficiencyFixture.snapshot("app-eff-most"));
        assertTrue(historyWith.contains(EfficiencyText.money(e.coreHoursAllocated() * 0.05
                + e.gbHoursAllocated() * 0.006, "EUR")), "the run's cost");
        JsonNode runs = api(priced() + "/api/v1/history?job=" + java.net.URLEncoder.encode(jobKey, "UTF-8"))
                .get("runs");
        assertEquals(4, runs.size());
        int priced = 0;
        for (JsonNode r : runs) {
            priced += r.get("cost").isNull() ? 0 : 1;
        }
        assertEquals(3, priced, "every run with figures has a cost");

        String whatIfWith = page(priced() + "/apps/app-eff-most/what-if");
        String conclusion = Html.unescapeForTest(between(whatIfWith, "whatif-conclusion"));
        assertTrue(conclusion.contains("executors") && conclusion.contains("cost = core-hours × 0.05 EUR"), conclusion);
        assertTrue(whatIfWith.contains("<th class=\"num\">Cost</th>"));
        String whatIfWithout = page(unpriced() + "/apps/app-eff-most/what-if");
        assertTrue(whatIfWithout.contains("<th class=\"num\">Core-hours</th>"));
        assertTrue(between(whatIfWithout, "whatif-conclusion").contains("no prices set"));
        JsonNode w = api(priced() + "/api/v1/apps/app-eff-most/what-if");
        assertTrue(w.get("cost").get("priced").asBoolean());
        assertEquals(w.get("curve").size(), w.get("cost").get("points").size(), "a cost at each executor count");
        assertFalse(api(unpriced() + "/api/v1/apps/app-eff-most/what-if").get("cost").get("priced").asBoolean());
    }
}
