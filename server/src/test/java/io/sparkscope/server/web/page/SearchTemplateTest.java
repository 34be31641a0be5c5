package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.server.web.http.SearchParams;
import io.sparkscope.store.query.AppEfficiency;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppListRow;
import io.sparkscope.store.query.AppSearchQuery;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The search page from search.jte is the page the code wrote, byte for byte, for every shape of page (no match, one,
 * a full page, the running list, every filter set, each place of the pager, with and without prices), and what users
 * and applications wrote (names, users, ids, finding texts, the filters' values) is escaped.
 */
class SearchTemplateTest {
    private static final String EVIL = TaskPages.EVIL;
    private static final List<String> HEURISTICS = List.of("DiskSpill", "StageSkew", "Evil" + EVIL);

    static Finding finding(int i, Severity severity) {
        return new Finding("F" + i, "Heuristic" + i + (i % 3 == 0 ? " " + EVIL : ""), severity,
                i % 4 == 0 ? "" : "Title " + i + " — naïve " + EVIL, "Message " + i + " \"quoted\" " + EVIL,
                "", null, null, null, null);
    }

    /** An application of every shape by its index: names, attempts, end, saving, efficiency and findings vary. */
    static AppListRow row(int i) {
        AppEfficiency e = switch (i % 4) {
            case 0 -> null;
            case 1 -> new AppEfficiency(10.5, 4, 6.5, 0.5, 40, 20.0, 20.0, 1, 1_000);
            case 2 -> new AppEfficiency(1, 1, 0.000278, 0, 4, null, null, 0, 0);
            default -> new AppEfficiency(12_345.678, 2, 12_343.678, 0, 8, 4.0, 1.25, 0, 0);
        };
        List<Finding> findings = new ArrayList<>();
        for (int f = 0; f < i % 5; f++) {
            findings.add(finding(i * 10 + f, f % 2 == 0 ? Severity.HIGH : Severity.LOW));
        }
        String worst = findings.isEmpty() ? null : "HIGH";
        if (findings.size() == 1 && i % 2 == 0) {
            worst = "LOW";
        }
        String name = switch (i % 5) {
            case 0 -> null;
            case 1 -> "";
            case 2 -> "ETL " + EVIL + " naïve ☃ 𝄞";
            default -> "job-" + i;
        };
        AppFilter.Status status = AppFilter.Status.values()[i % AppFilter.Status.values().length];
        return new AppListRow(i, "app-" + i + (i % 7 == 0 ? " " + EVIL : ""), i % 3 == 0 ? "att " + i : null, name,
                i % 6 == 0 ? "user " + EVIL : "user" + i, 1_700_000_000_000L + i * 60_000L,
                i % 2 == 0 ? 1_700_000_000_000L + i * 120_000L : -1, i * 61_000L, status, i, 2 * i, 1_000L * i, i,
                findings.size(), worst, findings, i % 3 == 1 ? 30_000L * i : 0, e);
    }

    static List<AppListRow> rows(int n) {
        List<AppListRow> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(row(i));
        }
        return out;
    }

    static SearchParams params(int page, String... kv) {
        Map<String, String> q = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            q.put(kv[i], kv[i + 1]);
        }
        if (page > 1) {
            q.put("page", String.valueOf(page));
        }
        return new SearchParams(null, q, page);
    }

    private static final List<SearchParams> SEARCHES = List.of(
            params(1),
            params(1, "status", "running"),
            params(2, "status", "running", "sort", "duration", "order", "asc"),
            params(3, "appId", "app-1 " + EVIL, "name", "ETL " + EVIL, "user", "ann\"", "startedFrom", "2026-11-29",
                    "startedTo", "2026-11-30T10:00Z", "endedFrom", "17000", "endedTo", "18000 " + EVIL,
                    "since", "1d", "severity", "high", "heuristic", "StageSkew", "minWaste", "2.5 " + EVIL,
                    "status", "complete", "sort", "waste", "order", "desc"),
            params(1, "since", "1h", "severity", "none", "heuristic", "NotInTheList " + EVIL),
            params(1, "since", "1w", "status", "incomplete", "sort", "saving"),
            params(1, "order", "asc"),
            params(1, "dag", "orders " + EVIL, "task", "load\"", "parentJob", "orders.load " + EVIL,
                    "parentRun", "01931885-2800-7be7-aa8d-aaa15c337267"));

    private static final List<Prices> PRICES = List.of(Prices.NONE, new Prices(0.05, 0.01, "EUR"),
            new Prices(1, 0, "$"));

    @Test
    void sameBytesAsTheCodeForEverySearch() {
        for (SearchParams p : SEARCHES) {
            List<AppSearchQuery.Result> results = List.of(
                    new AppSearchQuery.Result(List.of(), 0),
                    new AppSearchQuery.Result(rows(1), 1),
                    new AppSearchQuery.Result(rows(7), 7),
                    new AppSearchQuery.Result(rows(50), 50),
                    new AppSearchQuery.Result(rows(50), 51),
                    new AppSearchQuery.Result(rows(50), 12_345),
                    new AppSearchQuery.Result(rows(50), 1_000, true),
                    new AppSearchQuery.Result(rows(50), 150),
                    new AppSearchQuery.Result(List.of(), 120),
                    new AppSearchQuery.Result(rows(3), 1, true));
            for (AppSearchQuery.Result r : results) {
                for (Prices prices : PRICES) {
                    // the refresh shows on the running list only: another than the default there
                    int refresh = SearchView.runningOnly(p.query()) ? 3 : 10;
                    SameBytes.assertSame(CodeSearchView.render(p, r, HEURISTICS, refresh, prices),
                            SearchView.render(p, r, HEURISTICS, refresh, prices),
                            p.query() + ", " + r.rows().size() + " rows of " + r.total()
                                    + (r.totalIsLowerBound() ? "+" : "") + ", " + prices + ", refresh " + refresh);
                }
            }
        }
    }

    @Test
    void theDefaultsAreTheCodesToo() {
        SearchParams p = params(1, "name", "x");
        AppSearchQuery.Result r = new AppSearchQuery.Result(rows(5), 5);
        SameBytes.assertSame(CodeSearchView.render(p, r, HEURISTICS), SearchView.render(p, r, HEURISTICS), "defaults");
        SameBytes.assertSame(CodeSearchView.page(p, r, HEURISTICS, 10, Prices.NONE).toString(),
                SearchView.page(p, r, HEURISTICS, 10, Prices.NONE).toString(), "the builder sent");
    }

    @Test
    void escapesWhatUsersAndApplicationsWrote() {
        String html = SearchView.render(SEARCHES.get(3), new AppSearchQuery.Result(rows(8), 8), HEURISTICS, 10,
                new Prices(0.05, 0.01, "EUR"));
        assertFalse(html.contains("<script>"), "no markup from data");
        String evil = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;";
        assertTrue(html.contains("<a class=\"app-name\" href=\"/apps/app-2\">ETL " + evil + " naïve".replace("ï",
                "&#239;")), "an application name as text");
        assertTrue(html.contains("value=\"app-0 " + evil + "/att 0\" title=\"Pick to compare\""), "an id in an attribute");
        assertTrue(html.contains("<dd class=\"user\">user " + evil + "</dd>"), "a user");
        assertTrue(html.contains("title=\"Message 10 &quot;quoted&quot; " + evil + "\">HIGH · ".replace("·", "&#183;")),
                "a finding's message in the banner's title");
        assertTrue(html.contains("id=\"f-name\" value=\"ETL " + evil + "\""), "a filter's value");
        assertTrue(html.contains("id=\"f-minWaste\" form=\"filter-form\" size=\"4\" value=\"2.5 " + evil + "\""),
                "the idle core-hours filter");
        assertTrue(html.contains("<option value=\"Evil" + evil + "\">Evil" + evil + "</option>"), "a heuristic id");
    }
}
