package io.sparkscope.server.web.page;

import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.server.web.model.Fmt;
import io.sparkscope.store.query.JobsExecutorsQuery;

import java.util.Map;

/**
 * {@code /apps/{appId}[/{attemptId}]/executors}: every executor (the driver too when it ran tasks or reported
 * memory) with its host, cores, lifetime, tasks, task and GC time, I/O, peak memory where Spark logged it, and why it
 * was removed.
 */
final class ExecutorsView {
    private ExecutorsView() {
    }

    static String render(JobsExecutorsQuery.Executors e, AppTabs.Live live) {
        Html h = AppTabs.page(e.app(), AppTabs.Tab.EXECUTORS, "Executors", live);
        long removed = e.executors().stream().filter(x -> x.removeTime() >= 0).count();
        h.raw("<section><h2 id=\"executors\">Executors (").t(e.executors().size()).raw(removed > 0 ? ", " : "")
                .t(removed > 0 ? removed + " removed" : "").raw(")</h2>");
        if (e.executors().isEmpty()) {
            h.raw("<p class=\"empty\">No executor recorded.</p></section>");
            return AppTabs.end(h);
        }
        boolean anyPeaks = e.executors().stream().anyMatch(x -> !x.peakMetrics().isEmpty());
        h.raw("<div class=\"table-scroll\"><table class=\"grid\" id=\"executor-table\"><thead><tr><th>Executor</th>"
                + "<th>Host</th><th class=\"num\">Cores</th><th>Added</th><th class=\"num\">Lifetime</th>"
                + "<th class=\"num\">Tasks ok</th><th class=\"num\">Failed</th><th class=\"num\">Killed</th>"
                + "<th class=\"num\">Task time</th><th class=\"num\">GC (share)</th><th class=\"num\">Input</th>"
                + "<th class=\"num\">Shuffle read</th><th class=\"num\">Shuffle write</th>"
                + "<th class=\"num\">Spill (mem / disk)</th><th class=\"num\">Storage memory</th>"
                + "<th class=\"num\">Peak JVM heap</th><th class=\"num\">Peak off-heap</th>"
                + "<th class=\"num\">Peak execution memory</th><th>Removed</th></tr></thead><tbody>");
        for (ExecutorSummary x : e.executors()) {
            h.raw("<tr class=\"executor-row").raw(x.removeTime() >= 0 ? " removed" : "").raw("\" data-executor=\"")
                    .a(x.executorId()).raw("\"><td>").t(x.executorId()).raw("</td><td class=\"host\">")
                    .t(x.hostPort() != null ? x.hostPort() : x.host()).raw("</td><td class=\"num\">").t(x.totalCores())
                    .raw("</td><td>").t(Fmt.time(x.addTime())).raw("</td><td class=\"num\">")
                    .t(x.addTime() > 0 && x.removeTime() >= x.addTime() ? Fmt.duration(x.removeTime() - x.addTime())
                            : x.addTime() > 0 ? "alive" : "—")
                    .raw("</td><td class=\"num\">").t(Fmt.count(x.completedTasks())).raw("</td><td class=\"num")
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
            h.raw("<td class=\"num\">").t(onHeap == null && offHeap == null ? "—"
                    : Fmt.bytes((onHeap == null ? 0 : onHeap) + (offHeap == null ? 0 : offHeap))).raw("</td><td>");
            if (x.removeTime() >= 0) {
                h.raw("<span class=\"muted\">").t(Fmt.time(x.removeTime())).raw("</span>");
                if (x.removeReason() != null && !x.removeReason().isBlank()) {
                    JobsView.reason(h, x.removeReason());
                }
            } else {
                h.raw("<span class=\"muted\">—</span>");
            }
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table></div>");
        if (!anyPeaks) {
            h.raw("<p class=\"hint\" id=\"no-peaks\">No peak memory was recorded: Spark logs it with"
                    + " spark.eventLog.logStageExecutorMetrics=true (Spark 3.0 and later).</p>");
        }
        h.raw("</section>");
        return AppTabs.end(h);
    }

    private static void peak(Html h, Map<String, Long> peaks, String name) {
        Long v = peaks.get(name);
        h.raw("<td class=\"num\">").t(v == null ? "—" : Fmt.bytes(v)).raw("</td>");
    }
}
