package io.sparkscope.server.web.page;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.model.ExecutionData;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.store.query.TaskListQuery;
import io.sparkscope.store.query.TaskListQuery.Sort;

import java.util.Locale;

/**
 * The task table page as it was written in code before tasks.jte, kept unchanged as the reference the template's
 * page must equal byte for byte ({@link TasksTemplateTest}) and as the baseline of {@link PageRenderBench}.
 */
final class CodeTasksView {
    private CodeTasksView() {
    }

    static String render(TaskListQuery.Page p, TaskListQuery.Request r, AppTabs.Live live) {
        var app = p.app();
        String stageKey = r.stageId() + "." + r.stageAttemptId();
        Html h = AppTabs.page(app, null, "Stage " + stageKey + " tasks", live);
        TaskListQuery.Stage s = p.stage();
        String base = Urls.stageTasks(app.appId(), app.attemptId(), r.stageId(), r.stageAttemptId());
        h.raw("<section><h2 id=\"tasks\">Stage ").t(stageKey).raw(" · tasks</h2><p class=\"stage-name\">");
        StageTableView.name(h, s.name());
        h.raw(" <span class=\"stage-status st-").raw(s.status().toLowerCase(Locale.ROOT).replaceAll("[^a-z]", ""))
                .raw("\">").t(s.status().toLowerCase(Locale.ROOT)).raw("</span> <span class=\"muted\">")
                .t(Fmt.count(s.numTasks())).t(" tasks; ").t(Fmt.count(s.numCompleteTasks())).t(" succeeded, ")
                .t(Fmt.count(s.numFailedTasks())).t(" failed, ").t(Fmt.count(s.numKilledTasks())).t(" killed")
                .raw(" · <a href=\"").a(Urls.stageTimeline(app.appId(), app.attemptId(), r.stageId(), r.stageAttemptId()))
                .raw("\">timeline</a></span></p>");
        sampled(h, s);
        filters(h, p, r, base);
        long from = p.tasks().isEmpty() ? 0 : (long) r.offset() + 1;
        long to = (long) r.offset() + p.tasks().size();
        h.raw("<p class=\"muted\" id=\"task-range\">").t(p.tasks().isEmpty() ? "No task matches."
                : "Tasks " + Fmt.count(from) + "–" + Fmt.count(to) + " of " + Fmt.count(p.matching())
                + (p.capped() ? "+" : "") + (r.filtered() ? " matching" : "")).raw("</p>");
        table(h, p, r, base);
        pager(h, p, r, base);
        h.raw("</section>");
        return AppTabs.end(h);
    }

    /** Says when the stored tasks are a selection of the stage's, as the timeline does. */
    private static void sampled(Html h, TaskListQuery.Stage s) {
        int ended = s.numCompleteTasks() + s.numFailedTasks() + s.numKilledTasks();
        String shown = "Stored: " + Fmt.count(s.keptTasks()) + " of " + Fmt.count(ended) + " task attempts, ";
        if ("SAMPLED".equals(s.taskDetail())) {
            h.raw("<p class=\"notice\" id=\"tasks-sampled\">").t(shown + "the slowest half and a uniform sample of the"
                    + " others (the recorder keeps every task up to spark.sparkscope.tasks.perStage, past it a"
                    + " selection), and failed ones. Sorting and filters apply to these; the stage's totals and"
                    + " quantiles count every task.").raw("</p>");
        } else if ("SLOWEST".equals(s.taskDetail()) || s.keptTasks() < ended && s.taskDetail() != null
                && !"ALL".equals(s.taskDetail())) {
            h.raw("<p class=\"notice\" id=\"tasks-sampled\">").t(shown + "the slowest only (older stages are thinned"
                    + " once the application keeps more than spark.sparkscope.tasks.retained). The stage's totals and"
                    + " quantiles count every task.").raw("</p>");
        } else if (s.keptTasks() < ended) {
            h.raw("<p class=\"notice\" id=\"tasks-sampled\">").t(shown + "not every task of the stage was kept.")
                    .raw("</p>");
        }
    }

    private static void filters(Html h, TaskListQuery.Page p, TaskListQuery.Request r, String base) {
        h.raw("<form class=\"task-filters\" id=\"task-filters\" method=\"get\" action=\"").a(base)
                .raw("\"><label>Status<select name=\"status\" id=\"f-status\"><option value=\"\">all</option>");
        String status = r.statuses().size() == 1 ? r.statuses().iterator().next() : null;
        for (String st : ExecutionData.TASK_STATUSES) {
            h.raw("<option value=\"").a(st.toLowerCase(Locale.ROOT)).raw("\"").raw(st.equals(status) ? " selected" : "")
                    .raw(">").t(st.toLowerCase(Locale.ROOT)).raw("</option>");
        }
        h.raw("</select></label><label>Executor<select name=\"executor\" id=\"f-executor\"><option value=\"\">all</option>");
        for (String ex : p.executorIds()) {
            h.raw("<option value=\"").a(ex).raw("\"").raw(ex.equals(r.executorId()) ? " selected" : "").raw(">").t(ex)
                    .raw("</option>");
        }
        h.raw("</select></label><label>Sort by<select name=\"sort\" id=\"f-sort\">");
        for (Sort so : Sort.values()) {
            h.raw("<option value=\"").a(so.name().toLowerCase(Locale.ROOT)).raw("\"").raw(so == r.sort() ? " selected" : "")
                    .raw(">").t(label(so)).raw("</option>");
        }
        h.raw("</select></label><label>Order<select name=\"order\" id=\"f-order\"><option value=\"asc\"")
                .raw(r.descending() ? "" : " selected").raw(">ascending</option><option value=\"desc\"")
                .raw(r.descending() ? " selected" : "").raw(">descending</option></select></label>");
        if (r.length() != ExecutionPages.PAGE_LENGTH) {
            h.raw("<input type=\"hidden\" name=\"length\" value=\"").a(r.length()).raw("\">");
        }
        h.raw("<button class=\"btn\" type=\"submit\" id=\"f-apply\">Show</button></form>");
    }

    private static String label(Sort s) {
        return TasksView.label(s);
    }

    private static void table(Html h, TaskListQuery.Page p, TaskListQuery.Request r, String base) {
        h.raw("<div class=\"table-scroll\"><table class=\"grid\" id=\"task-table\"><thead><tr>");
        header(h, r, base, "Task", Sort.ID);
        header(h, r, base, "Index", Sort.INDEX);
        h.raw("<th class=\"num\">Attempt</th><th>Executor</th><th>Host</th><th>Status</th><th>Locality</th>");
        header(h, r, base, "Launched", Sort.LAUNCH_TIME);
        header(h, r, base, "Duration", Sort.DURATION);
        header(h, r, base, "Run time", Sort.RUN_TIME);
        header(h, r, base, "GC", Sort.GC_TIME);
        header(h, r, base, "Shuffle read", Sort.SHUFFLE_READ);
        h.raw("<th class=\"num\">Shuffle write</th><th class=\"num\">Input</th>");
        header(h, r, base, "Spill", Sort.SPILL);
        header(h, r, base, "Peak memory", Sort.PEAK_MEMORY);
        h.raw("</tr></thead><tbody>");
        for (TaskRecord t : p.tasks()) {
            String status = t.status() == null ? "unknown" : t.status().toLowerCase(Locale.ROOT);
            TaskMetrics m = t.metrics();
            h.raw("<tr class=\"task-row").raw("failed".equals(status) ? " task-failed" : "").raw("\" data-task=\"")
                    .t(t.taskId()).raw("\"><td class=\"num\">").t(t.taskId()).raw("</td><td class=\"num\">").t(t.index())
                    .raw("</td><td class=\"num\">").t(t.attempt()).raw(t.speculative() ? " <span class=\"muted\">spec.</span>" : "")
                    .raw("</td><td>");
            if (t.executorId() != null) {
                h.raw("<a class=\"executor-link\" href=\"").a(Links.executor(p.app().appId(), p.app().attemptId(),
                        t.executorId())).raw("\">").t(t.executorId()).raw("</a>");
            }
            h.raw("</td><td class=\"host\">").t(t.host())
                    .raw("</td><td><span class=\"task-status st-").raw(status.replaceAll("[^a-z]", "")).raw("\">").t(status)
                    .raw("</span></td><td>").t(t.locality()).raw("</td><td class=\"when\">").t(Fmt.time(t.launchTime()))
                    .raw("</td><td class=\"num\">").t(t.timesKnown() ? Fmt.duration(t.durationMs()) : "—")
                    .raw("</td>");
            metric(h, m, TaskMetric.EXECUTOR_RUN_TIME, true);
            metric(h, m, TaskMetric.JVM_GC_TIME, true);
            h.raw("<td class=\"num\">").t(m == null ? "—" : Fmt.bytes(m.shuffleReadBytes())).raw("</td>");
            metric(h, m, TaskMetric.SHUFFLE_BYTES_WRITTEN, false);
            metric(h, m, TaskMetric.INPUT_BYTES, false);
            h.raw("<td class=\"num\">").t(m == null ? "—" : Fmt.bytes(m.get(TaskMetric.MEMORY_BYTES_SPILLED)
                    + m.get(TaskMetric.DISK_BYTES_SPILLED))).raw("</td>");
            h.raw("<td class=\"num\">").t(TasksView.peakMemory(m)).raw("</td></tr>");
            if (t.errorMessage() != null || t.errorDetail() != null) {
                h.raw("<tr class=\"task-error-row\" data-error-of=\"").t(t.taskId()).raw("\"><td colspan=\"").t(TasksView.COLUMNS)
                        .raw("\"><div class=\"task-error\"><span class=\"muted\">").t(t.endReason()).raw("</span> ");
                JobsView.reason(h, t.errorDetail() != null ? t.errorDetail() : t.errorMessage());
                h.raw("</div></td></tr>");
            }
        }
        h.raw("</tbody></table></div>");
    }

    private static void metric(Html h, TaskMetrics m, TaskMetric metric, boolean time) {
        h.raw("<td class=\"num\">").t(m == null ? "—" : time ? Fmt.duration(m.get(metric)) : Fmt.bytes(m.get(metric)))
                .raw("</td>");
    }

    /** A sortable column heading: a link to the first page in this order (the same again flips the direction). */
    private static void header(Html h, TaskListQuery.Request r, String base, String label, Sort key) {
        boolean on = key == r.sort();
        boolean nextDesc = on ? !r.descending() : key != Sort.ID && key != Sort.INDEX && key != Sort.LAUNCH_TIME;
        h.raw("<th class=\"num sortable").raw(on ? " on" : "").raw("\"><a href=\"")
                .a(url(base, r, key, nextDesc, 0)).raw("\">").t(label).raw(on ? (r.descending() ? " ▼" : " ▲") : "")
                .raw("</a></th>");
    }

    private static void pager(Html h, TaskListQuery.Page p, TaskListQuery.Request r, String base) {
        boolean prev = r.offset() > 0;
        boolean next = (long) r.offset() + p.tasks().size() < p.matching() || p.capped();
        if (!prev && !next) {
            return;
        }
        h.raw("<nav class=\"pager\" id=\"task-pager\">");
        if (prev) {
            h.raw("<a class=\"btn\" id=\"page-prev\" href=\"").a(url(base, r, r.sort(), r.descending(),
                    Math.max(0, r.offset() - r.length()))).raw("\">&#8592; previous</a>");
        }
        if (next) {
            h.raw("<a class=\"btn\" id=\"page-next\" href=\"").a(url(base, r, r.sort(), r.descending(),
                    r.offset() + r.length())).raw("\">next &#8594;</a>");
        }
        h.raw("</nav>");
    }

    private static String url(String base, TaskListQuery.Request r, Sort sort, boolean desc, int offset) {
        return TasksView.url(base, r, sort, desc, offset);
    }
}
