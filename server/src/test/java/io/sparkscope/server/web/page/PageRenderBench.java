package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.server.web.http.SearchParams;
import io.sparkscope.store.query.AppSearchQuery;
import io.sparkscope.store.query.StageRow;
import io.sparkscope.store.query.TaskListQuery;
import io.sparkscope.store.query.TaskListQuery.Sort;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Render time of pages written in code against the same pages from their templates, in one JVM: the task table page
 * (100 rows, a running application's frame), the application page's stage table (40 stages with their
 * quantiles) and the search page (a full page of 50 applications with findings, efficiency and prices). Rounds
 * alternate the two versions so both see the same machine load, and the times are the thread's CPU time (what other
 * processes take does not count). Not a test: run it with {@code java -cp <test and main classes and the server's
 * dependencies> io.sparkscope.server.web.page.PageRenderBench [rounds=10] [pages per round=2000]}.
 */
public final class PageRenderBench {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static long sink;

    private PageRenderBench() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int pages = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        TaskListQuery.Page page = TaskPages.page(100, true, "SAMPLED");
        TaskListQuery.Request request = TaskPages.request(100, 100, Sort.RUN_TIME, true, Set.of(), null);
        AppTabs.Live live = new AppTabs.Live(1_700_000_000_000L + 61_000, 10);
        compare("task table page", rounds, pages, () -> CodeTasksView.render(page, request, live),
                () -> TasksView.render(page, request, live));
        List<StageRow> stages = StageTableTemplateTest.stages(40);
        var operators = StageTableTemplateTest.operators();
        compare("stage table", rounds, pages, () -> {
            Html h = new Html();
            CodeStageTableView.render(h, stages, operators, "app-1", null, StageTableView.StageSort.ID, false);
            return h.toString();
        }, () -> {
            Html h = new Html();
            StageTableView.render(h, stages, operators, "app-1", null, StageTableView.StageSort.ID, false);
            return h.toString();
        });
        SearchParams search = SearchTemplateTest.params(3, "name", "job", "sort", "duration");
        AppSearchQuery.Result found = new AppSearchQuery.Result(SearchTemplateTest.rows(50), 1_000, true);
        Prices prices = new Prices(0.05, 0.01, "EUR");
        compare("search page", rounds, pages,
                () -> CodeSearchView.page(search, found, List.of("DiskSpill", "StageSkew"), 10, prices).toString(),
                () -> SearchView.page(search, found, List.of("DiskSpill", "StageSkew"), 10, prices).toString());
        System.out.println("(sink " + sink + ")");
    }

    private static void compare(String what, int rounds, int pages, Supplier<String> code, Supplier<String> template) {
        if (!code.get().equals(template.get())) {
            throw new IllegalStateException(what + ": the two versions differ");
        }
        double[] c = new double[rounds];
        double[] t = new double[rounds];
        for (int round = -3; round < rounds; round++) { // three rounds of warm-up
            double cn = time(code, pages);
            double tn = time(template, pages);
            if (round >= 0) {
                c[round] = cn;
                t[round] = tn;
                System.out.printf("%s, round %d: CPU code %.0f ns/page, template %.0f ns/page, ratio %.3f%n", what,
                        round, cn, tn, tn / cn);
            }
        }
        Arrays.sort(c);
        Arrays.sort(t);
        System.out.printf("%s (%d bytes): median CPU code %.0f ns/page, template %.0f ns/page, ratio %.3f%n", what,
                template.get().length(), c[rounds / 2], t[rounds / 2], t[rounds / 2] / c[rounds / 2]);
    }

    private static double time(Supplier<String> render, int pages) {
        long t0 = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < pages; i++) {
            sink += render.get().length();
        }
        return (THREADS.getCurrentThreadCpuTime() - t0) / (double) pages;
    }
}
