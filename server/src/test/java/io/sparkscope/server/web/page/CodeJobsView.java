package io.sparkscope.server.web.page;

import io.sparkscope.core.model.JobSummary;
import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.store.query.JobsExecutorsQuery;

import java.util.List;
import java.util.Locale;

/**
 * JobsView as it was written in code before jobs.jte, kept verbatim as the reference the template's page is compared
 * with (JobsTemplateTest). {@code /apps/{appId}[/{attemptId}]/jobs}: every job with its status, time, stages, tasks
 * and why it failed.
 */
final class CodeJobsView {
    /** Lines of a failure reason shown before "more". */
    static final int REASON_LINES = 3;

    private CodeJobsView() {
    }

    static String render(JobsExecutorsQuery.Jobs jobs, AppTabs.Live live) {
        Html h = AppTabs.page(jobs.app(), AppTabs.Tab.JOBS, "Jobs", live);
        long failed = jobs.jobs().stream().filter(j -> j.status() == JobSummary.JobStatus.FAILED).count();
        h.raw("<section><h2 id=\"jobs\">Jobs (").t(jobs.jobs().size()).raw(failed > 0 ? ", " : "")
                .t(failed > 0 ? failed + " failed" : "").raw(")</h2>");
        if (jobs.jobs().isEmpty()) {
            h.raw("<p class=\"empty\">No job recorded.</p></section>");
            return AppTabs.end(h);
        }
        h.raw("<div class=\"table-scroll\"><table class=\"grid\" id=\"job-table\"><thead><tr><th>Job</th><th>Name</th>"
                + "<th>Status</th><th>Submitted</th><th class=\"num\">Duration</th><th>Stages</th>"
                + "<th class=\"num\">Tasks</th><th class=\"num\">Failed</th><th class=\"num\">Killed</th>"
                + "<th>Failure reason</th></tr></thead><tbody>");
        for (JobSummary j : jobs.jobs()) {
            String status = j.status().name().toLowerCase(Locale.ROOT);
            h.raw("<tr class=\"job-row\" id=\"").a(Links.jobAnchor(j.jobId())).raw("\" data-job=\"").t(j.jobId())
                    .raw("\"><td>").t(j.jobId());
            if (j.sqlExecutionId() >= 0) {
                h.raw("<div class=\"small\"><a class=\"job-sql\" href=\"")
                        .a(Links.sql(jobs.app().appId(), jobs.app().attemptId(), j.sqlExecutionId())).raw("\">SQL ")
                        .t(j.sqlExecutionId()).raw("</a></div>");
            }
            h.raw("</td><td class=\"stage-name\">");
            StageTableView.name(h, j.description() != null && !j.description().isBlank() ? j.description() : j.name());
            if (j.jobGroup() != null) {
                h.raw("<div class=\"muted small\">group ").t(j.jobGroup()).raw("</div>");
            }
            h.raw("</td><td><span class=\"job-status st-").raw(status).raw("\">").t(status).raw("</span></td><td>")
                    .t(Fmt.time(j.submissionTime())).raw("</td><td class=\"num\">")
                    .t(j.completionTime() > 0 ? Fmt.duration(j.durationMs()) : "—").raw("</td><td>");
            stages(h, j, jobs);
            h.raw("</td><td class=\"num\">").t(Fmt.count(j.numCompletedTasks())).t(" / ").t(Fmt.count(j.numTasks()))
                    .raw("</td><td class=\"num").raw(j.numFailedTasks() > 0 ? " bad" : "").raw("\">")
                    .t(Fmt.count(j.numFailedTasks())).raw("</td><td class=\"num\">").t(Fmt.count(j.numKilledTasks()))
                    .raw("</td><td>");
            reason(h, j.failureReason());
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table></div></section>");
        return AppTabs.end(h);
    }

    /** The stage ids and, when recorded, how many completed, failed or were skipped (Spark's job counts). */
    private static void stages(Html h, JobSummary j, JobsExecutorsQuery.Jobs jobs) {
        h.raw("<span class=\"stage-ids\">");
        List<Integer> ids = Links.sorted(j.stageIds());
        if (ids.isEmpty()) {
            h.raw("<span class=\"muted\">—</span>");
        }
        for (int i = 0; i < ids.size(); i++) {
            Integer attempt = jobs.latestAttempts().get(ids.get(i));
            h.raw(i > 0 ? ", " : "");
            if (attempt == null) {
                h.raw("<span class=\"stage-ref\">").t(ids.get(i)).raw("</span>");
            } else {
                h.raw("<a class=\"stage-ref\" href=\"").a(Links.stage(jobs.app().appId(), jobs.app().attemptId(),
                        ids.get(i), attempt)).raw("\">").t(ids.get(i)).raw("</a>");
            }
        }
        h.raw("</span>");
        if (j.numCompletedStages() >= 0) {
            h.raw("<div class=\"muted small\">").t(j.numCompletedStages()).t(" completed");
            if (j.numFailedStages() > 0) {
                h.t(", ").t(j.numFailedStages()).t(" failed");
            }
            if (j.numSkippedStages() > 0) {
                h.t(", ").t(j.numSkippedStages()).t(" skipped");
            }
            h.raw("</div>");
        }
    }

    /** A failure reason's first lines, the rest behind "more". */
    static void reason(Html h, String reason) {
        JtereasonGenerated.render(new PageOutput(h), null, reason);
    }

    /** The first {@link #REASON_LINES} of a reason's lines, as one text. */
    static String firstLines(String[] lines) {
        return String.join("\n", java.util.Arrays.asList(lines).subList(0, Math.min(REASON_LINES, lines.length)));
    }
}
