package io.sparkscope.server.web.page;

import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.store.query.AppRefs;
import io.sparkscope.store.query.JobsExecutorsQuery;
import io.sparkscope.store.query.JobsExecutorsQuery.Order;
import io.sparkscope.store.query.JobsExecutorsQuery.State;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The executors tab from executors.jte is the page the code wrote, byte for byte, on every shape of page (filtered,
 * paged both ways, empty), and executor ids, hosts and removal reasons are escaped.
 */
class ExecutorsTemplateTest {
    private static final String EVIL = TaskPages.EVIL;
    private static final long START = 1_700_000_000_000L;

    /**
     * Executors alive and removed (with short, long, blank and no reasons), a start unknown, with and without
     * peaks (zeros for "not measured", execution memory on or off the heap only), hostile ids and hosts.
     */
    static List<ExecutorSummary> executors(int n) {
        List<ExecutorSummary> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            boolean removed = i % 3 != 0;
            Map<String, Long> peaks = i % 4 == 0 ? Map.of() : i % 4 == 1 ? Map.of("JVMHeapMemory", 1L << 30,
                    "JVMOffHeapMemory", 0L, "OnHeapExecutionMemory", 1L << 20) : i % 4 == 2
                    ? Map.of("JVMHeapMemory", 0L, "OffHeapExecutionMemory", 5L << 20)
                    : Map.of("OnHeapExecutionMemory", 0L, "OffHeapExecutionMemory", 0L);
            out.add(ExecutorSummary.builder().executorId(i == 0 ? "driver" : i + (i % 5 == 1 ? " " + EVIL : ""))
                    .host("host-" + i + (i % 2 == 0 ? EVIL : "")).hostPort(i % 3 == 1 ? null : "host-" + i + ":7337")
                    .totalCores(4).addTime(i % 7 == 6 ? 0 : START + i).removeTime(removed ? START + 60_000L * i : -1)
                    .removeReason(!removed ? null : i % 5 == 0 ? " " : i % 2 == 0 ? "lost " + EVIL
                            : "Container killed\nline 2 " + EVIL + "\nline 3\nline 4\nline 5")
                    .maxMemory(i % 2 == 0 ? 0 : 1L << 31).completedTasks(100 * i).failedTasks(i % 3).killedTasks(i % 2)
                    .totalDuration(i % 6 == 0 ? 0 : 61_000L * i).totalGcTime(700L * i).inputBytes(1L << i % 40)
                    .shuffleReadBytes(3_000L * i).shuffleWriteBytes(4_000L * i).memoryBytesSpilled(5L * i)
                    .diskBytesSpilled(6L * i).peakMetrics(peaks).build());
        }
        return out;
    }

    private static JobsExecutorsQuery.ExecutorPage page(List<ExecutorSummary> rows, boolean running, long total,
                                                        long matching, boolean anyPeaks) {
        var app = new AppRefs.Resolved(1, "app-1 " + EVIL, running ? null : "2", "ETL — naïve " + EVIL, START,
                running ? 0 : START + 3_600_000, START + 60_000, !running);
        return new JobsExecutorsQuery.ExecutorPage(app, rows, 1, total, total / 3, matching, anyPeaks);
    }

    @Test
    void sameBytesAsTheCodeForEveryShapeOfPage() {
        AppTabs.Live live = new AppTabs.Live(START + 61_000, 15);
        List<ExecutorSummary> all = executors(30);
        record Case(JobsExecutorsQuery.ExecutorPage page, JobsExecutorsQuery.Request request) {
        }
        int len = ExecutionPages.PAGE_LENGTH;
        List<Case> cases = List.of(
                new Case(page(all, false, 30, 30, true), new JobsExecutorsQuery.Request(State.ALL, Order.APPEARED, 0, len)),
                new Case(page(all, true, 30, 30, false), new JobsExecutorsQuery.Request(State.ALL, Order.APPEARED, 0, len)),
                new Case(page(all.subList(0, 10), false, 100_000, 66_666, true),
                        new JobsExecutorsQuery.Request(State.REMOVED, Order.ID, 0, 10)),
                new Case(page(all.subList(10, 20), false, 100_000, 66_666, true),
                        new JobsExecutorsQuery.Request(State.REMOVED, Order.ID, 10, 10, "9")),
                new Case(page(all.subList(20, 30), false, 30, 30, true),
                        new JobsExecutorsQuery.Request(State.ACTIVE, Order.ID, 20, 10, "19 " + EVIL)),
                new Case(page(List.of(), false, 30, 0, false),
                        new JobsExecutorsQuery.Request(State.ACTIVE, Order.APPEARED, 0, len)),
                new Case(page(List.of(), false, 30, 30, true),
                        new JobsExecutorsQuery.Request(State.ALL, Order.APPEARED, 40, 10)),
                new Case(page(List.of(), true, 0, 0, false),
                        new JobsExecutorsQuery.Request(State.ALL, Order.APPEARED, 0, len)));
        for (Case c : cases) {
            SameBytes.assertSame(CodeExecutorsView.render(c.page(), c.request(), live),
                    ExecutorsView.render(c.page(), c.request(), live), c.request().toString());
        }
    }

    @Test
    void escapesIdsHostsAndReasons() {
        String html = ExecutorsView.render(page(executors(12), false, 20, 20, true),
                new JobsExecutorsQuery.Request(State.ALL, Order.APPEARED, 0, 12), new AppTabs.Live(START, 15));
        assertFalse(html.contains("<script>"), html);
        assertTrue(html.contains("data-executor=\"1 &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;\""),
                "an executor id in an attribute");
        assertTrue(html.contains("<td class=\"host\">host-4&lt;script&gt;"), "a host as text");
        assertTrue(html.contains("lost &lt;script&gt;"), "a removal reason as text");
        assertTrue(html.contains("after=11%20%3Cscript%3E"), "the cursor in the next link, encoded");
    }
}
