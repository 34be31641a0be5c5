package io.sparkscope.server.web.page;

import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.store.query.JobsExecutorsQuery;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code /apps/{appId}[/{attemptId}]/executors}: the executors (the driver too when it ran tasks or reported
 * memory) with their host, cores, lifetime, tasks, task and GC time, I/O, peak memory where Spark logged it, and why
 * they were removed; one page at a time, as the task table pages (an elastic application may have had a hundred
 * thousand), with plain links and a GET form, so it works without JavaScript. The markup is executors.jte.
 */
final class ExecutorsView {
    private ExecutorsView() {
    }

    static String render(JobsExecutorsQuery.ExecutorPage e, JobsExecutorsQuery.Request r, AppTabs.Live live) {
        // one page of rows (ExecutionPages.PAGE_LENGTH by default), however many executors the application had
        Html h = new Html(16 * 1024);
        JteexecutorsGenerated.render(new PageOutput(h), null, e, r, live);
        return h.toString();
    }

    /** Which rows the page shows, of how many match: "Executors 1–100 of 2,000 removed". */
    static String range(JobsExecutorsQuery.ExecutorPage e, JobsExecutorsQuery.Request r) {
        if (e.executors().isEmpty()) {
            return "No executor matches.";
        }
        long from = (long) r.offset() + 1;
        long to = (long) r.offset() + e.executors().size();
        return "Executors " + Fmt.count(from) + "–" + Fmt.count(to) + " of " + Fmt.count(e.matching())
                + (r.state() == JobsExecutorsQuery.State.ALL ? "" : " " + r.state().name().toLowerCase(Locale.ROOT));
    }

    /** How long the executor lived, "alive" while it still runs, "—" when its start is unknown. */
    static String lifetime(ExecutorSummary x) {
        return x.addTime() > 0 && x.removeTime() >= x.addTime() ? Fmt.duration(x.removeTime() - x.addTime())
                : x.addTime() > 0 ? "alive" : "—";
    }

    /** A peak memory figure Spark logged for the executor, "—" when not measured. */
    static String peak(ExecutorSummary x, String name) {
        // Spark fills a task's missing sample with zeros, so 0 means "not measured": a live JVM has a heap.
        Long v = x.peakMetrics().get(name);
        return v == null || v == 0 ? "—" : Fmt.bytes(v);
    }

    /** The peak execution memory, on and off the heap together, "—" when not measured. */
    static String executionPeak(ExecutorSummary x) {
        Long onHeap = x.peakMetrics().get("OnHeapExecutionMemory");
        Long offHeap = x.peakMetrics().get("OffHeapExecutionMemory");
        return (onHeap == null || onHeap == 0) && (offHeap == null || offHeap == 0) ? "—"
                : Fmt.bytes((onHeap == null ? 0 : onHeap) + (offHeap == null ? 0 : offHeap));
    }

    /** @param after the cursor: the id of the executor the page starts after, or null to start at {@code offset} */
    static String url(String base, JobsExecutorsQuery.Request r, int offset, String after) {
        Map<String, String> q = new LinkedHashMap<>();
        q.put("state", r.state() == JobsExecutorsQuery.State.ALL ? null : r.state().name().toLowerCase(Locale.ROOT));
        q.put("offset", offset == 0 ? null : String.valueOf(offset));
        q.put("after", after);
        q.put("length", r.length() == ExecutionPages.PAGE_LENGTH ? null : String.valueOf(r.length()));
        return Urls.withQuery(base, q) + "#executors";
    }
}
