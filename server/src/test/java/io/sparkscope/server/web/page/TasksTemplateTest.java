package io.sparkscope.server.web.page;

import io.sparkscope.store.query.TaskListQuery;
import io.sparkscope.store.query.TaskListQuery.Sort;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The task table page from tasks.jte is the page the code wrote, byte for byte, and escapes what it shows. */
class TasksTemplateTest {
    private static final AppTabs.Live QUIET = new AppTabs.Live(1_700_000_000_000L + 3_600_000, 10);
    private static final AppTabs.Live RUNNING = new AppTabs.Live(1_700_000_000_000L + 61_000, 15);

    @Test
    void sameBytesAsTheCodeForEveryShapeOfPage() {
        record Case(TaskListQuery.Page page, TaskListQuery.Request request, AppTabs.Live live) {
        }
        for (Case c : new Case[] {
            new Case(TaskPages.page(100, false, "ALL"), TaskPages.request(0, 100, Sort.ID, false, Set.of(), null), QUIET),
            new Case(TaskPages.page(100, true, "SAMPLED"), TaskPages.request(200, 100, Sort.RUN_TIME, true,
                    Set.of("FAILED"), "3"), RUNNING),
            new Case(TaskPages.page(40, false, "SLOWEST"), TaskPages.request(49_960, 40, Sort.SPILL, false,
                    Set.of(), TaskPages.EVIL), QUIET),
            new Case(TaskPages.page(0, false, null), TaskPages.request(0, 500, Sort.PEAK_MEMORY, true,
                    Set.of("SUCCESS", "FAILED"), null), QUIET),
        }) {
            assertEquals(CodeTasksView.render(c.page(), c.request(), c.live()),
                    TasksView.render(c.page(), c.request(), c.live()), c.request().toString());
        }
    }

    @Test
    void escapesNamesErrorsAndExecutorIds() {
        String page = TasksView.render(TaskPages.page(100, true, "SAMPLED"),
                TaskPages.request(100, 100, Sort.ID, false, Set.of(), TaskPages.EVIL), RUNNING);
        assertFalse(page.contains("<script>"), "no markup from the data");
        assertTrue(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;"), "shown as text");
        assertTrue(page.contains("<option value=\"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;\" selected>"),
                "the chosen executor, escaped in its attribute");
        assertTrue(page.contains("ETL &#8212; na&#239;ve"), "non-ASCII as character references");
        assertTrue(page.contains("id=\"live-status\""), "a running application's page updates itself");
        assertEquals(100, page.split("class=\"task-row", -1).length - 1);
    }
}
