package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.store.query.JobsExecutorsQuery;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An application that added and removed 100 000 executors: its executors tab and Spark's executor lists stay a
 * bounded size (they were 62 MB and 54 MB whole), page on, and count every executor.
 */
class ManyExecutorsWebTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int EXECUTORS = 100_000;
    private static final String TAB = "/apps/" + ManyExecutorsLoad.APP + "/executors";
    private static String base;
    private static DataSource ds;

    @BeforeAll
    static void load() throws Exception {
        ds = WebFixture.newDatabase();
        ManyExecutorsLoad.write(ds, EXECUTORS);
        base = OwnServer.over(ds).base();
    }

    @Test
    void theTabShowsOnePageAndCountsThemAll() {
        String first = get(TAB).body();
        assertTrue(first.length() < 300_000, "one page, not every executor: " + first.length() + " bytes");
        assertEquals(100, count(first, "class=\"executor-row"));
        assertTrue(first.contains("Executors (100,000, 90,000 removed)"), head(first));
        assertTrue(first.contains("Executors 1&#8211;100 of 100,000") || first.contains("Executors 1–100 of 100,000"),
                head(first));
        assertTrue(first.contains("data-executor=\"1\"") && first.contains("data-executor=\"100\""));
        assertTrue(first.contains("id=\"page-next\"") && !first.contains("id=\"page-prev\""));
        assertTrue(first.contains("Container killed: &lt;script&gt;"), "the removal reason, escaped");
        assertFalse(first.contains(ManyExecutorsLoad.EVIL));

        String last = get(TAB + "?offset=99950").body();
        assertEquals(50, count(last, "class=\"executor-row"));
        assertTrue(last.contains("data-executor=\"100000\"") && last.contains("id=\"page-prev\"")
                && !last.contains("id=\"page-next\""));

        String active = get(TAB + "?state=active&length=1000").body();
        assertEquals(1000, count(active, "class=\"executor-row"));
        assertFalse(active.contains("executor-row removed"), "only the live ones");
        assertTrue(active.length() < 2_000_000, active.length() + " bytes");

        assertEquals(400, get(TAB + "?length=100000").status(), "a page holds at most 1 000 rows");
        assertEquals(400, get(TAB + "?state=gone").status());
    }

    @Test
    void sparksExecutorListsArePagedWithTheTotalInAHeader() throws Exception {
        HttpResponse<String> all = getApi("/api/v1/apps/" + ManyExecutorsLoad.APP + "/allexecutors");
        assertEquals(200, all.statusCode());
        assertEquals("100000", all.headers().firstValue("X-Total-Count").orElse(null));
        JsonNode list = JSON.readTree(all.body());
        assertEquals(1000, list.size(), "the first thousand by default");
        assertTrue(all.body().length() < 3_000_000, all.body().length() + " bytes");
        assertEquals("1", list.get(0).get("id").asText(), "by id, as Spark sorts them (as text)");
        assertEquals("10", list.get(1).get("id").asText());

        JsonNode next = JSON.readTree(getApi("/api/v1/apps/" + ManyExecutorsLoad.APP
                + "/allexecutors?offset=1000&length=10").body());
        assertEquals(10, next.size());
        assertFalse(next.get(0).get("id").asText().equals(list.get(999).get("id").asText()), "the next page");

        HttpResponse<String> active = getApi("/api/v1/apps/" + ManyExecutorsLoad.APP + "/executors?length=5");
        assertEquals("10000", active.headers().firstValue("X-Total-Count").orElse(null));
        JsonNode five = JSON.readTree(active.body());
        assertEquals(5, five.size());
        assertEquals("99990", five.get(0).get("id").asText(), "live ones by id descending");
        assertTrue(five.get(0).get("isActive").asBoolean());
    }

    @Test
    void theNextLinkCarriesACursorAndTheLinksWalkEveryPageOnce() {
        // All of them: the next link starts after the page's last executor, and shows what offset 100 shows.
        String first = get(TAB).body();
        String next = nextLink(first);
        assertTrue(next.contains("after=100&") || next.endsWith("after=100"), next);
        String second = get(next).body();
        assertEquals(executorIds(get(TAB + "?offset=100").body()), executorIds(second));
        assertEquals(List.of("101", "200"), List.of(executorIds(second).get(0), executorIds(second).get(99)));
        assertTrue(second.contains("Executors 101&#8211;200 of 100,000") || second.contains("Executors 101–200 of 100,000"),
                head(second));

        // The live ones, a thousand a page: ten pages by the links, each a bounded size, every live one once.
        List<String> seen = new ArrayList<>();
        String page = get(TAB + "?state=active&length=1000").body();
        for (int pages = 1; ; pages++) {
            assertTrue(page.length() < 2_000_000, page.length() + " bytes");
            seen.addAll(executorIds(page));
            String link = nextLink(page);
            if (link == null) {
                break;
            }
            assertTrue(pages < 10, "ten pages of a thousand, then no next link");
            assertTrue(link.contains("state=active") && link.contains("length=1000")
                    && link.contains("after=" + seen.get(seen.size() - 1)), link);
            page = get(link).body();
        }
        assertEquals(10_000, seen.size());
        assertEquals(10_000, new HashSet<>(seen).size(), "no executor twice");
        for (int i = 0; i < seen.size(); i++) {
            assertEquals(String.valueOf((i + 1) * 10), seen.get(i), "in the order they appeared, none skipped");
        }
    }

    @Test
    void sparksExecutorListsLinkTheNextPageByCursor() throws Exception {
        String api = "/api/v1/apps/" + ManyExecutorsLoad.APP + "/allexecutors";
        HttpResponse<String> r = getApi(api + "?length=1000");
        for (int offset = 0; offset < 5000; offset += 1000) {
            assertTrue(r.body().length() < 3_000_000, r.body().length() + " bytes");
            List<String> byLink = ids(JSON.readTree(r.body()));
            List<String> byOffset = ids(JSON.readTree(getApi(api + "?offset=" + offset + "&length=1000").body()));
            assertEquals(byOffset, byLink, "page at " + offset);
            String link = r.headers().firstValue("Link").orElseThrow();
            assertTrue(link.matches("<" + api + "\\?offset=" + (offset + 1000) + "&length=1000&after="
                    + byLink.get(999) + ">; rel=\"next\""), link);
            r = getApi(link.substring(1, link.indexOf('>')));
            assertEquals("100000", r.headers().firstValue("X-Total-Count").orElse(null));
        }
        HttpResponse<String> last = getApi(api + "?offset=99990&length=10");
        assertEquals(10, JSON.readTree(last.body()).size());
        assertTrue(last.headers().firstValue("Link").isEmpty(), "no next page after the last");
    }

    /** The executor ids of a tab page, in the page's order. */
    private static List<String> executorIds(String page) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("class=\"executor-row[^\"]*\" data-executor=\"([^\"]*)\"").matcher(page);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The page's next link (its path and query, as the browser would follow it), or null on the last page. */
    private static String nextLink(String page) {
        Matcher m = Pattern.compile("id=\"page-next\" href=\"([^\"#]*)").matcher(page);
        return m.find() ? m.group(1).replace("&amp;", "&") : null;
    }

    private static List<String> ids(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(x -> out.add(x.get("id").asText()));
        return out;
    }

    @Test
    void whoRanTasksIsAskedOfAFewRows() throws Exception {
        assertEquals(List.of("1", "2"), new JobsExecutorsQuery(ds).executorsThatRanTasks(ManyExecutorsLoad.APP, null, 2)
                .orElseThrow());
        assertTrue(new JobsExecutorsQuery(ds).executorsThatRanTasks("app-none", null, 2).isEmpty());
    }

    private static String head(String page) {
        int at = page.indexOf("id=\"executors\"");
        return page.substring(Math.max(0, at), Math.min(page.length(), at + 1500));
    }

    private static int count(String s, String needle) {
        int n = 0;
        for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    private static WebFixture.Response get(String path) {
        return WebFixture.getAt(base, path);
    }

    private static HttpResponse<String> getApi(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
