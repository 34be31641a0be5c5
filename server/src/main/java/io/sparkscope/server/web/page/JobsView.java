package io.sparkscope.server.web.page;

import io.sparkscope.store.query.JobsExecutorsQuery;

/**
 * {@code /apps/{appId}[/{attemptId}]/jobs}: every job with its status, time, stages, tasks and why it failed. The
 * markup is jobs.jte.
 */
final class JobsView {
    /** Lines of a failure reason shown before "more". */
    static final int REASON_LINES = 3;

    private JobsView() {
    }

    static String render(JobsExecutorsQuery.Jobs jobs, AppTabs.Live live) {
        Html h = AppTabs.page(jobs.app(), AppTabs.Tab.JOBS, "Jobs", live);
        JtejobsGenerated.render(new PageOutput(h), null, jobs.app(), jobs.jobs(), jobs.latestAttempts());
        return AppTabs.end(h);
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
