package io.sparkscope.server.web.page;

import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.store.query.JobsExecutorsQuery;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * ExecutorsView as it was written in code before executors.jte, kept verbatim (but for the page links it shares with ExecutorsView) as the
 * reference the template's page is
 * compared with (ExecutorsTemplateTest). {@code /apps/{appId}[/{attemptId}]/executors}: the executors (the driver too when it ran tasks or reported
 * memory) with their host, cores, lifetime, tasks, task and GC time, I/O, peak memory where Spark logged it, and why
 * they were removed; one page at a time, as the task table pages (an elastic application may have had a hundred
 * thousand), with plain links and a GET form, so it works without JavaScript.
 */
final class CodeExecutorsView {
    private CodeExecutorsView() {
    }

    static String render(JobsExecutorsQuery.ExecutorPage e, JobsExecutorsQuery.Request r, AppTabs.Live live) {
        Html h = AppTabs.page(e.app(), AppTabs.Tab.EXECUTORS, "Executors", live);
        long removed = e.removed();
        h.raw("<section><h2 id=\"executors\">Executors (").t(Fmt.count(e.total())).raw(removed > 0 ? ", " : "")
                .t(removed > 0 ? Fmt.count(removed) + " removed" : "").raw(")</h2>");
        if (e.total() == 0) {
            h.raw("<p class=\"empty\">No executor recorded.</p></section>");
            return AppTabs.end(h);
        }
        String base = Urls.appTab(e.app().appId(), e.app().attemptId(), "executors");
        filter(h, r, base);
        long from = e.executors().isEmpty() ? 0 : (long) r.offset() + 1;
        long to = (long) r.offset() + e.executors().size();
        h.raw("<p class=\"muted\" id=\"executor-range\">").t(e.executors().isEmpty() ? "No executor matches."
                : "Executors " + Fmt.count(from) + "–" + Fmt.count(to) + " of " + Fmt.count(e.matching())
                + (r.state() == JobsExecutorsQuery.State.ALL ? "" : " " + r.state().name().toLowerCase(Locale.ROOT)))
                .raw("</p>");
        boolean anyPeaks = e.anyPeaks();
        h.raw("<div class=\"table-scroll\"><table class=\"grid\" id=\"executor-table\"><thead><tr><th>Executor</th>"
                + "<th>Host</th><th class=\"num\">Cores</th><th>Added</th><th class=\"num\">Lifetime</th>"
                + "<th>Removed</th><th class=\"num\">Tasks ok</th><th class=\"num\">Failed</th><th class=\"num\">Killed</th>"
                + "<th class=\"num\">Task time</th><th class=\"num\">GC (share)</th><th class=\"num\">Input</th>"
                + "<th class=\"num\">Shuffle read</th><th class=\"num\">Shuffle write</th>"
                + "<th class=\"num\">Spill (mem / disk)</th><th class=\"num\">Storage memory</th>"
                + "<th class=\"num\">Peak JVM heap</th><th class=\"num\">Peak off-heap</th>"
                + "<th class=\"num\">Peak execution memory</th></tr></thead><tbody>");
        for (ExecutorSummary x : e.executors()) {
            h.raw("<tr class=\"executor-row").raw(x.removeTime() >= 0 ? " removed" : "").raw("\" data-executor=\"")
                    .a(x.executorId()).raw("\"><td><a class=\"executor-link\" href=\"")
                    .a(Links.executor(e.app().appId(), e.app().attemptId(), x.executorId())).raw("\">")
                    .t(x.executorId()).raw("</a></td><td class=\"host\">")
                    .t(x.hostPort() != null ? x.hostPort() : x.host()).raw("</td><td class=\"num\">").t(x.totalCores())
                    .raw("</td><td class=\"when\">").t(Fmt.time(x.addTime())).raw("</td><td class=\"num\">")
                    .t(x.addTime() > 0 && x.removeTime() >= x.addTime() ? Fmt.duration(x.removeTime() - x.addTime())
                            : x.addTime() > 0 ? "alive" : "—")
                    .raw("</td><td class=\"removed\">");
            if (x.removeTime() >= 0) {
                h.raw("<span class=\"muted when\">").t(Fmt.time(x.removeTime())).raw("</span>");
                if (x.removeReason() != null && !x.removeReason().isBlank()) {
                    JobsView.reason(h, x.removeReason());
                }
            } else {
                h.raw("<span class=\"muted\">—</span>");
            }
            h.raw("</td><td class=\"num\">").t(Fmt.count(x.completedTasks())).raw("</td><td class=\"num")
                    .raw(x.failedTasks() > 0 ? " bad" : "").raw("\">").t(Fmt.count(x.failedTasks()))
                    .raw("</td><td class=\"num\">").t(Fmt.count(x.killedTasks())).raw("</td><td class=\"num\">")
                    .t(Fmt.duration(x.totalDuration())).raw("</td><td class=\"num\">").t(Fmt.duration(x.totalGcTime()))
                    .t(x.totalDuration() > 0 ? " (" + Fmt.percent((double) x.totalGcTime() / x.totalDuration()) + ")" : "")
                    .raw("</td><td class=\"num\">").t(Fmt.bytes(x.inputBytes())).raw("</td><td class=\"num\">")
                    .t(Fmt.bytes(x.shuffleReadBytes())).raw("</td><td class=\"num\">").t(Fmt.bytes(x.shuffleWriteBytes()))
                    .raw("</td><td class=\"num\">").t(Fmt.bytes(x.memoryBytesSpilled())).t(" / ")
                    .t(Fmt.bytes(x.diskBytesSpilled())).raw("</td><td class=\"num\">")
                    .t(x.maxMemory() > 0 ? Fmt.bytes(x.maxMemory()) : "—").raw("</td>");
            Map<String, Long> p = x.peakMetrics();
            peak(h, p, "JVMHeapMemory");
            peak(h, p, "JVMOffHeapMemory");
            Long onHeap = p.get("OnHeapExecutionMemory");
            Long offHeap = p.get("OffHeapExecutionMemory");
            h.raw("<td class=\"num\">").t((onHeap == null || onHeap == 0) && (offHeap == null || offHeap == 0) ? "—"
                    : Fmt.bytes((onHeap == null ? 0 : onHeap) + (offHeap == null ? 0 : offHeap))).raw("</td></tr>");
        }
        h.raw("</tbody></table></div>");
        pager(h, e, r, base);
        if (!anyPeaks) {
            h.raw("<p class=\"hint\" id=\"no-peaks\">No peak memory was recorded: Spark logs it with"
                    + " spark.eventLog.logStageExecutorMetrics=true (Spark 3.0 and later).</p>");
        }
        h.raw("</section>");
        return AppTabs.end(h);
    }

    private static void filter(Html h, JobsExecutorsQuery.Request r, String base) {
        h.raw("<form class=\"task-filters\" id=\"executor-filters\" method=\"get\" action=\"").a(base)
                .raw("\"><label>Show<select name=\"state\" id=\"f-state\">");
        for (JobsExecutorsQuery.State st : JobsExecutorsQuery.State.values()) {
            String v = st.name().toLowerCase(Locale.ROOT);
            h.raw("<option value=\"").a(v).raw("\"").raw(st == r.state() ? " selected" : "").raw(">").t(v)
                    .raw("</option>");
        }
        h.raw("</select></label>");
        if (r.length() != ExecutionPages.PAGE_LENGTH) {
            h.raw("<input type=\"hidden\" name=\"length\" value=\"").a(r.length()).raw("\">");
        }
        h.raw("<button class=\"btn\" type=\"submit\" id=\"f-apply\">Show</button></form>");
    }

    private static void pager(Html h, JobsExecutorsQuery.ExecutorPage e, JobsExecutorsQuery.Request r, String base) {
        boolean prev = r.offset() > 0;
        // (an empty page has no last row to continue after: a cursor at the end of a list that shrank since)
        boolean next = !e.executors().isEmpty() && (long) r.offset() + e.executors().size() < e.matching();
        if (!prev && !next) {
            return;
        }
        h.raw("<nav class=\"pager\" id=\"executor-pager\">");
        if (prev) {
            h.raw("<a class=\"btn\" id=\"page-prev\" href=\"")
                    .a(ExecutorsView.url(base, r, Math.max(0, r.offset() - r.length()), null)).raw("\">&#8592; previous</a>");
        }
        if (next) {
            // the cursor (the last row's id) makes the next page an index range from there, and exact even when
            // executors were added in between; the offset still numbers its rows
            String last = e.executors().get(e.executors().size() - 1).executorId();
            h.raw("<a class=\"btn\" id=\"page-next\" href=\"").a(ExecutorsView.url(base, r, r.offset() + r.length(), last))
                    .raw("\">next &#8594;</a>");
        }
        h.raw("</nav>");
    }


    private static void peak(Html h, Map<String, Long> peaks, String name) {
        // Spark fills a task's missing sample with zeros, so 0 means "not measured": a live JVM has a heap.
        Long v = peaks.get(name);
        h.raw("<td class=\"num\">").t(v == null || v == 0 ? "—" : Fmt.bytes(v)).raw("</td>");
    }
}
