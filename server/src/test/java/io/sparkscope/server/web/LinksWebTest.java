package io.sparkscope.server.web;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every link of every kind of application page leads somewhere: the pages of three fixture applications (a failed
 * one with its diagnosis, one with failed tasks and a removed executor, one with SQL plans from real Spark) are
 * crawled from the application page, and every href on them (other pages, static files, anchors) is fetched (one
 * of the links that differ only in their parameters' values, such as a table's sort orders): it answers 200 (after a
 * redirect, when there is one), and an anchor names an element of the page it lands on.
 */
class LinksWebTest {
    /** Fetched at most: every page of the three applications' links is reached well within it. */
    private static final int MAX_FETCHES = 3_000;
    private static final Pattern HREF = Pattern.compile("\\shref=\"([^\"]*)\"");
    private static final Pattern ID = Pattern.compile("\\sid=\"([^\"]*)\"");

    @Test
    void everyInternalLinkOfEveryApplicationPageResolves() {
        Crawl diag = crawl(DiagnosisFixture.base(), "/apps/app-diag");
        Crawl exec = crawl(ExecutionFixture.base(), "/apps/" + ExecutionFixture.APP);
        Crawl sql = crawl(SqlFixture.base(), SqlBrowserTest.app());
        List<String> broken = new ArrayList<>();
        Set<String> kinds = new TreeSet<>();
        for (Crawl c : List.of(diag, exec, sql)) {
            broken.addAll(c.broken);
            kinds.addAll(c.kinds);
        }
        assertTrue(broken.isEmpty(), broken.size() + " broken links: " + String.join("\n", broken));
        // the crawl went through every kind of page an application has
        for (String kind : List.of("app", "jobs", "executors", "executor", "sql", "sql-execution", "tasks", "timeline",
                "what-if", "stage")) {
            assertTrue(kinds.contains(kind), "no " + kind + " page reached: " + kinds);
        }
    }

    /** What a crawl found: the kinds of page it reached and every link that did not resolve. */
    private record Crawl(Set<String> kinds, List<String> broken) {
    }

    /**
     * Fetches {@code start} and every href on the pages reached (one per path and set of query parameters: a sorted
     * task table differs from another in its rows, not its links), following links further only inside the
     * application ({@code start}'s path).
     */
    private static Crawl crawl(String base, String start) {
        Map<String, Page> pages = new HashMap<>();
        Set<String> kinds = new TreeSet<>();
        List<String> broken = new ArrayList<>();
        Set<String> shapes = new HashSet<>();
        Set<String> fetchedShapes = new HashSet<>();
        Set<String> checked = new LinkedHashSet<>();
        Deque<String[]> todo = new ArrayDeque<>();
        todo.add(new String[] {start, "(start)"});
        int fetches = 0;
        while (!todo.isEmpty()) {
            String[] next = todo.poll();
            String href = next[0];
            String from = next[1];
            String path = href.contains("#") ? href.substring(0, href.indexOf('#')) : href;
            String anchor = href.contains("#") ? href.substring(href.indexOf('#') + 1) : null;
            if (!checked.add(href)) {
                continue;
            }
            Page page = pages.get(path);
            if (page == null && !fetchedShapes.add(shape(path))) {
                // the same page with other values of the same parameters (another sort order, page or filter of a
                // table): its links are the same, and reading each would read every table in every order
                continue;
            }
            if (page == null) {
                assertTrue(++fetches <= MAX_FETCHES, "more than " + MAX_FETCHES + " links from " + start);
                page = fetch(base, path, pages);
                pages.put(path, page);
                if (page.status != 200) {
                    broken.add(href + " (on " + from + "): " + page.status);
                    continue;
                }
                String kind = kind(path);
                if (kind != null) {
                    kinds.add(kind);
                }
                if (page.html && page.path.startsWith(start) && shapes.add(shape(page.path))) {
                    for (String link : page.links) {
                        todo.add(new String[] {link, page.path});
                    }
                }
            }
            String target = anchor != null ? anchor : page.anchor;
            if (page.status == 200 && target != null && !target.isEmpty() && !page.ids.contains(target)) {
                broken.add(href + " (on " + from + "): no element with id " + target + " on " + page.path);
            }
        }
        return new Crawl(kinds, broken);
    }

    /** One fetched page: where it ended (after redirects), its status, its links and its elements' ids. */
    private record Page(String path, String anchor, int status, boolean html, List<String> links, Set<String> ids) {
    }

    /** {@code path} fetched, following redirects; a redirect to a page already fetched reads it from {@code pages}. */
    private static Page fetch(String base, String path, Map<String, Page> pages) {
        String at = path;
        String anchor = null;
        for (int redirects = 0; redirects < 5; redirects++) {
            Page known = redirects == 0 ? null : pages.get(at);
            if (known != null) {
                return new Page(known.path, anchor, known.status, known.html, known.links, known.ids);
            }
            WebFixture.Response r = WebFixture.getAt(base, at);
            if (r.status() / 100 == 3) {
                String location = r.headers().firstValue("Location").orElse("");
                URI u = URI.create(base + at).resolve(location);
                at = u.getRawPath() + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
                anchor = u.getRawFragment();
                continue;
            }
            boolean html = r.headers().firstValue("Content-Type").orElse("").startsWith("text/html");
            List<String> links = new ArrayList<>();
            Set<String> ids = new HashSet<>();
            if (html) {
                Matcher m = HREF.matcher(r.body());
                while (m.find()) {
                    String link = unescape(m.group(1));
                    if (link.startsWith("#")) {
                        link = at + link;
                    }
                    if (link.startsWith("/")) {
                        links.add(link);
                    }
                }
                Matcher i = ID.matcher(r.body());
                while (i.find()) {
                    ids.add(unescape(i.group(1)));
                }
            }
            return new Page(at, anchor, r.status(), html, links, ids);
        }
        return new Page(at, anchor, 310, false, List.of(), Set.of());
    }

    private static String unescape(String attribute) {
        return attribute.replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">")
                .replace("&amp;", "&");
    }

    /** The path with each query parameter's value left out: "/x?sort=&order=". */
    private static String shape(String pathAndQuery) {
        int q = pathAndQuery.indexOf('?');
        if (q < 0) {
            return pathAndQuery;
        }
        StringBuilder sb = new StringBuilder(pathAndQuery.substring(0, q)).append('?');
        for (String p : new TreeSet<>(List.of(pathAndQuery.substring(q + 1).split("&")))) {
            sb.append(p.contains("=") ? p.substring(0, p.indexOf('=')) : p).append("=&");
        }
        return sb.toString();
    }

    /** Which kind of application page a path is, null for a page outside an application. */
    private static String kind(String pathAndQuery) {
        String path = pathAndQuery.contains("?") ? pathAndQuery.substring(0, pathAndQuery.indexOf('?')) : pathAndQuery;
        if (!path.startsWith("/apps/")) {
            return null;
        }
        String[] parts = path.substring("/apps/".length()).split("/");
        // [appId, (attemptId,) rest…]
        List<String> rest = List.of(parts).subList(1, parts.length);
        if (rest.isEmpty()) {
            return "app";
        }
        if (rest.contains("stages")) {
            String last = rest.get(rest.size() - 1);
            return last.equals("tasks") ? "tasks" : last.equals("timeline") ? "timeline" : "stage";
        }
        if (rest.contains("executors")) {
            return rest.get(rest.size() - 1).equals("executors") ? "executors" : "executor";
        }
        if (rest.contains("sql")) {
            return rest.get(rest.size() - 1).equals("sql") ? "sql" : "sql-execution";
        }
        String last = rest.get(rest.size() - 1);
        return last.equals("jobs") || last.equals("what-if") ? last : "app";
    }
}
