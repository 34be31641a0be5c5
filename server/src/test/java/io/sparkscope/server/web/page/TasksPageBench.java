package io.sparkscope.server.web.page;

import io.sparkscope.store.query.TaskListQuery;
import io.sparkscope.store.query.TaskListQuery.Sort;

import java.util.Set;

/**
 * Render time of the task table page (100 rows, a running application's frame) written in code against the same page
 * from tasks.jte, in one JVM: rounds alternate the two so both see the same machine load, and the times are the
 * thread's CPU time (what other processes on the machine take does not count). Not a test: run it with
 * {@code java -cp <test and main classes and the server's dependencies> io.sparkscope.server.web.page.TasksPageBench
 * [rounds=10] [pages per round=2000]}.
 */
public final class TasksPageBench {
    private TasksPageBench() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int pages = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        TaskListQuery.Page page = TaskPages.page(100, true, "SAMPLED");
        TaskListQuery.Request request = TaskPages.request(100, 100, Sort.RUN_TIME, true, Set.of(), null);
        AppTabs.Live live = new AppTabs.Live(1_700_000_000_000L + 61_000, 10);
        if (!CodeTasksView.render(page, request, live).equals(TasksView.render(page, request, live))) {
            throw new IllegalStateException("the two pages differ");
        }
        long bytes = TasksView.render(page, request, live).length();
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long sink = 0;
        double[] code = new double[rounds];
        double[] template = new double[rounds];
        for (int round = -3; round < rounds; round++) { // three rounds of warm-up
            long t0 = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < pages; i++) {
                sink += CodeTasksView.render(page, request, live).length();
            }
            long t1 = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < pages; i++) {
                sink += TasksView.render(page, request, live).length();
            }
            long t2 = threads.getCurrentThreadCpuTime();
            if (round >= 0) {
                code[round] = (t1 - t0) / (double) pages;
                template[round] = (t2 - t1) / (double) pages;
                System.out.printf("round %d: CPU code %.0f ns/page, template %.0f ns/page, ratio %.3f%n", round,
                        code[round], template[round], template[round] / code[round]);
            }
        }
        java.util.Arrays.sort(code);
        java.util.Arrays.sort(template);
        System.out.printf("page %d bytes; median CPU code %.0f ns/page, template %.0f ns/page, ratio %.3f (sink %d)%n",
                bytes, code[rounds / 2], template[rounds / 2], template[rounds / 2] / code[rounds / 2], sink);
    }
}
