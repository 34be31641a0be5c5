package io.sparkscope.server.web.page;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.Fmt;
import io.sparkscope.store.query.TaskListQuery;
import io.sparkscope.store.query.TaskListQuery.Sort;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code /apps/{appId}[/{attemptId}]/stages/{s}/{a}/tasks}: one page of a stage attempt's kept tasks, sorted and
 * filtered by the server (plain links and a GET form: it works without JavaScript), failed attempts with their
 * error, and a sentence when the stored tasks are not all of the stage's.
 */
final class TasksView {
    /** Columns of a task row: an error's own row under its task spans them all. */
    static final int COLUMNS = 16;

    private TasksView() {
    }

    static String render(TaskListQuery.Page p, TaskListQuery.Request r, AppTabs.Live live) {
        Html h = new Html(64 * 1024);
        JtetasksGenerated.render(new PageOutput(h), null, p, r, live);
        return h.toString();
    }

    /**
     * A task's peak execution memory, "—" when Spark measured none. Spark counts this memory only in the operators
     * that use it (sorts, aggregations, joins) and reports 0 for a task without them, and the store keeps no zero
     * metric apart from an absent one: 0 B would claim a measurement that was never taken.
     */
    static String peakMemory(TaskMetrics m) {
        long peak = m == null ? 0 : m.get(TaskMetric.PEAK_EXECUTION_MEMORY);
        return peak > 0 ? Fmt.bytes(peak) : "—";
    }

    /** A status as a CSS class name: its lower-case letters. */
    static String statusClass(String status) {
        return status.toLowerCase(Locale.ROOT).replaceAll("[^a-z]", "");
    }

    /** Tasks a to b of n (matching), or that none matches. */
    static String range(TaskListQuery.Page p, TaskListQuery.Request r) {
        long from = (long) r.offset() + 1;
        long to = (long) r.offset() + p.tasks().size();
        return p.tasks().isEmpty() ? "No task matches."
                : "Tasks " + Fmt.count(from) + "–" + Fmt.count(to) + " of " + Fmt.count(p.matching())
                + (p.capped() ? "+" : "") + (r.filtered() ? " matching" : "");
    }

    /** Says when the stored tasks are a selection of the stage's, as the timeline does; null when they are all. */
    static String sampled(TaskListQuery.Stage s) {
        int ended = s.numCompleteTasks() + s.numFailedTasks() + s.numKilledTasks();
        String shown = "Stored: " + Fmt.count(s.keptTasks()) + " of " + Fmt.count(ended) + " task attempts, ";
        if ("SAMPLED".equals(s.taskDetail())) {
            return shown + "the slowest half and a uniform sample of the others (the recorder keeps every task up to"
                    + " spark.sparkscope.tasks.perStage, past it a selection), and failed ones. Sorting and filters"
                    + " apply to these; the stage's totals and quantiles count every task.";
        } else if ("SLOWEST".equals(s.taskDetail()) || s.keptTasks() < ended && s.taskDetail() != null
                && !"ALL".equals(s.taskDetail())) {
            return shown + "the slowest only (older stages are thinned once the application keeps more than"
                    + " spark.sparkscope.tasks.retained). The stage's totals and quantiles count every task.";
        } else if (s.keptTasks() < ended) {
            return shown + "not every task of the stage was kept.";
        }
        return null;
    }

    /** A sort order's name in the form and the column headings. */
    static String label(Sort s) {
        return switch (s) {
            case ID -> "task id";
            case RUN_TIME -> "executor run time";
            case DURATION -> "duration";
            case LAUNCH_TIME -> "launch time";
            case INDEX -> "partition index";
            case GC_TIME -> "GC time";
            case SHUFFLE_READ -> "shuffle read";
            case SPILL -> "spill";
            case PEAK_MEMORY -> "peak execution memory";
        };
    }

    static String url(String base, TaskListQuery.Request r, Sort sort, boolean desc, int offset) {
        Map<String, String> q = new LinkedHashMap<>();
        if (r.statuses().size() == 1) {
            q.put("status", r.statuses().iterator().next().toLowerCase(Locale.ROOT));
        }
        q.put("executor", r.executorId());
        q.put("sort", sort == Sort.ID ? null : sort.name().toLowerCase(Locale.ROOT));
        q.put("order", desc ? "desc" : sort == Sort.ID ? null : "asc");
        q.put("offset", offset == 0 ? null : String.valueOf(offset));
        q.put("length", r.length() == ExecutionPages.PAGE_LENGTH ? null : String.valueOf(r.length()));
        return Urls.withQuery(base, q) + "#tasks";
    }
}
