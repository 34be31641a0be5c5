package io.sparkscope.server.web.page;

import io.sparkscope.store.query.JobsExecutorsQuery;

/**
 * {@code /apps/{appId}[/{attemptId}]/jobs}: every job with its status, time, stages, tasks and why it failed. The
 * markup is jobs.jte.
 */
final class JobsView {
    /** Lines of a failure reason shown before "more". */
    static final int REASON_LINES = 3;
    /** Characters of those lines shown before "…": a GPU or heap OOM message can be one line of a thousand. */
    static final int REASON_CHARS = 400;

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

    /** The first {@link #REASON_LINES} of a reason's lines, as one text, cut with "…" past {@link #REASON_CHARS}. */
    static String firstLines(String[] lines) {
        String first = String.join("\n", java.util.Arrays.asList(lines).subList(0, Math.min(REASON_LINES, lines.length)));
        return first.length() <= REASON_CHARS ? first
                : first.substring(0, first.offsetByCodePoints(0, first.codePointCount(0, REASON_CHARS) - 1)) + "…";
    }
}
