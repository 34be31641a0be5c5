package io.sparkscope.server.web;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.sparkscope.server.web.WebFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The search pager's links carry keyset cursors: following "next" and "previous" shows the same applications as the
 * numbered pages, each once, under every sort and order.
 */
class SearchCursorRoutesTest {
    private static final Pattern APP = Pattern.compile("name=\"apps\" form=\"compare-form\" value=\"([^\"]+)\"");

    private static List<String> apps(String html) {
        List<String> out = new ArrayList<>();
        Matcher m = APP.matcher(html);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static String link(String html, String rel) {
        Matcher m = Pattern.compile("rel=\"" + rel + "\" href=\"([^\"]+)\"").matcher(html);
        assertTrue(m.find(), "a " + rel + " link");
        return m.group(1).replace("&amp;", "&");
    }

    @Test
    void nextAndPreviousLinksWalkTheSameApplicationsAsNumberedPages() {
        for (String sort : new String[] {"start", "duration", "saving", "waste"}) {
            for (String order : new String[] {"desc", "asc"}) {
                String q = "/apps?sort=" + sort + "&order=" + order;
                String first = get(q).body();
                String next = link(first, "next");
                assertTrue(next.contains("after="), next);
                var second = get(next);
                assertEquals(200, second.status(), next);
                List<String> walked = new ArrayList<>(apps(first));
                walked.addAll(apps(second.body()));
                List<String> numbered = new ArrayList<>(apps(first));
                numbered.addAll(apps(get(q + "&page=2").body()));
                assertEquals(numbered, walked, q);
                assertEquals(WebFixture.TOTAL_APPS, new HashSet<>(walked).size(), q + ": each once");

                // the second page named page 3: its previous link ends before its first row, so it is page one again
                String deep = get(next.replace("page=2", "page=3")).body();
                String previous = link(deep, "prev");
                assertTrue(previous.contains("before="), previous);
                assertEquals(apps(first), apps(get(previous).body()), q + ": back by the cursor");
            }
        }
    }

    @Test
    void badCursorsAre400NamingTheParameter() {
        for (String[] c : new String[][] {{"/apps?after=yesterday", "after"}, {"/apps?before=1,x", "before"},
                {"/apps?after=none,4", "after"}, {"/apps?after=1,2&before=1,2", "before"}}) {
            var r = get(c[0]);
            assertEquals(400, r.status(), c[0]);
            assertTrue(r.body().contains("&#39;" + c[1] + "&#39;"), c[0] + " names " + c[1] + ": " + r.body());
        }
    }
}
