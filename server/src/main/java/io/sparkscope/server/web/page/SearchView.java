package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.server.web.http.SearchParams;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.AppListRow;
import io.sparkscope.store.query.AppSearchQuery;
import io.sparkscope.store.query.SearchCursor;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code /apps}: filters on the left (a GET form, so every search is a shareable URL), one panel per application.
 * The markup is search.jte, with searchPanel.jte for each application and searchField.jte / searchSelect.jte for the
 * form's fields; this class holds what the page decides (which links are on, the count's wording, the pager).
 */
final class SearchView {
    private SearchView() {
    }

    /** One choice of a filter's drop-down: the value sent and the text shown. */
    record Choice(String value, String label) {
    }

    /** A sort link of the results' head: the {@code sort} and {@code order} it asks for and its text. */
    record SortLink(String sort, String order, String label) {
    }

    /**
     * The pager under the results.
     *
     * @param previous the previous page's URL, null on the first page
     * @param more     the total is a lower bound (the count stopped at its cap): there may be more pages
     * @param next     the next page's URL, null on the last page
     */
    record Pager(String previous, int page, long pages, boolean more, String next) {
    }

    static final List<Choice> SEVERITIES = List.of(new Choice("high", "HIGH"), new Choice("low", "LOW"),
            new Choice("none", "OK (no finding)"));

    static final List<Choice> STATUSES = List.of(new Choice("running", "running"),
            new Choice("complete", "complete"), new Choice("incomplete", "incomplete (no end, silent > 1 h)"));

    static final List<SortLink> SORTS = List.of(new SortLink("start", "desc", "newest"),
            new SortLink("start", "asc", "oldest"), new SortLink("duration", "desc", "longest"),
            new SortLink("duration", "asc", "shortest"), new SortLink("saving", "desc", "largest saving"),
            new SortLink("waste", "desc", "most idle core-hours"));

    static String render(SearchParams p, AppSearchQuery.Result r, List<String> heuristics) {
        return render(p, r, heuristics, Layout.DEFAULT_REFRESH_SECONDS, Prices.NONE);
    }

    /**
     * @param refreshSeconds how often the list of running applications ({@code ?status=running}) updates itself
     * @param prices         the operator's prices, for each application's wasted amount
     */
    static String render(SearchParams p, AppSearchQuery.Result r, List<String> heuristics, int refreshSeconds,
                         Prices prices) {
        return page(p, r, heuristics, refreshSeconds, prices).toString();
    }

    /** As {@link #render(SearchParams, AppSearchQuery.Result, List, int, Prices)}: the page as its builder, to send. */
    static Html page(SearchParams p, AppSearchQuery.Result r, List<String> heuristics, int refreshSeconds,
                     Prices prices) {
        Html h = new Html(capacity(r.rows()));
        JtesearchGenerated.render(new PageOutput(h), null, p, r, heuristics, refreshSeconds, prices);
        return h;
    }

    /** Whether the search asks for running applications only: the "Running now" page, which updates itself. */
    static boolean runningOnly(Map<String, String> q) {
        return "running".equals(q.get("status"));
    }

    /** The heuristics to choose from, with the one asked for added when it is not among them (kept selected). */
    static List<Choice> heuristics(List<String> heuristics, String asked) {
        List<Choice> out = new ArrayList<>(heuristics.size() + 1);
        for (String id : heuristics) {
            out.add(new Choice(id, id));
        }
        if (asked != null && !heuristics.contains(asked)) {
            out.add(new Choice(asked, asked));
        }
        return out;
    }

    /** This search with {@code key} set to {@code value} (null: removed), from its first page. */
    static String url(Map<String, String> q, String key, String value) {
        return Urls.withQuery("/apps", Urls.with(q, key, value, "page", null));
    }

    /** Whether {@code s} is the order the results are in (newest first unless the URL says otherwise). */
    static boolean on(Map<String, String> q, SortLink s) {
        return s.sort().equals(q.getOrDefault("sort", "start")) && s.order().equals(q.getOrDefault("order", "desc"));
    }

    static String url(Map<String, String> q, SortLink s) {
        return Urls.withQuery("/apps", Urls.with(q, "sort", s.sort(), "order", s.order(), "page", null));
    }

    /** "1,234 applications", "1 application", or "1,000+ applications" when the count stopped at its cap. */
    static String count(AppSearchQuery.Result r) {
        long total = r.total();
        boolean more = r.totalIsLowerBound();
        return Fmt.count(total) + (more ? "+" : "") + (total == 1 && !more ? " application" : " applications");
    }

    /** The pager, or null when everything is on one page. */
    static Pager pager(SearchParams p, AppSearchQuery.Result r) {
        boolean more = r.totalIsLowerBound();
        long pages = Math.max(1, (r.total() + SearchParams.PAGE_SIZE - 1) / SearchParams.PAGE_SIZE);
        if (pages <= 1 && !more) {
            return null;
        }
        List<AppListRow> rows = r.rows();
        AppFilter.Sort sort = sortOf(p.query());
        // Past page 2 the links carry a cursor (keyset paging): the next page starts after this page's last row, the
        // previous one ends before its first, so a deep page reads 50 rows from an index instead of skipping
        // thousands. The page number stays in the link for the "page N of M" line and the counts.
        String previous = p.page() <= 1 ? null : p.page() == 2 || rows.isEmpty() ? page(p, p.page() - 1, null)
                : page(p, p.page() - 1, SearchCursor.of(rows.get(0), sort, true));
        String next = !(p.page() < pages || more) || rows.isEmpty() ? null
                : page(p, p.page() + 1, SearchCursor.of(rows.get(rows.size() - 1), sort, false));
        return new Pager(previous, p.page(), pages, more, next);
    }

    /** The sort as the URL gives it (the cursor's key is this sort's). */
    private static AppFilter.Sort sortOf(Map<String, String> q) {
        String sort = q.get("sort");
        return sort == null ? AppFilter.Sort.START : AppFilter.Sort.valueOf(sort.toUpperCase(Locale.ROOT));
    }

    private static String page(SearchParams p, int page, SearchCursor cursor) {
        return Urls.withQuery("/apps", Urls.with(p.query(), "page", String.valueOf(page),
                SearchParams.AFTER, cursor == null || cursor.before() ? null : cursor.text(),
                SearchParams.BEFORE, cursor == null || !cursor.before() ? null : cursor.text()));
    }

    /** The application as the compare form and the panel name it: its id, and its attempt after a slash. */
    static String key(AppListRow a) {
        return a.attemptId() == null ? a.appId() : a.appId() + "/" + a.attemptId();
    }

    static String name(AppListRow a) {
        return a.name() == null || a.name().isEmpty() ? "(no name)" : a.name();
    }

    static String status(AppListRow a) {
        return a.status().name().toLowerCase(Locale.ROOT);
    }

    /** Room for the page: the fixed parts, each panel's facts and its banners' text (which make most of a page). */
    static int capacity(List<AppListRow> rows) {
        int bytes = 12 * 1024;
        for (AppListRow a : rows) {
            bytes += 1200;
            for (Finding f : a.findings()) {
                bytes += 120 + length(f.heuristic()) + length(f.title()) + length(f.message()) * 9 / 8;
            }
        }
        return bytes;
    }

    private static int length(String s) {
        return s == null ? 0 : s.length();
    }
}
