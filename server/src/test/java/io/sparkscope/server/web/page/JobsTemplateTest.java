package io.sparkscope.server.web.page;

import io.sparkscope.core.model.JobSummary;
import io.sparkscope.store.query.AppRefs;
import io.sparkscope.store.query.JobsExecutorsQuery;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The jobs tab from jobs.jte is the page the code wrote, byte for byte, and names, groups and reasons are escaped. */
class JobsTemplateTest {
    private static final String EVIL = TaskPages.EVIL;
    private static final long START = 1_700_000_000_000L;

    /**
     * Jobs of every shape: each status, described or only named (long, hostile, multi-line), with and without a
     * group, running (no completion), stage counts recorded or not, failed and skipped stages, failed tasks, short
     * and long failure reasons.
     */
    static List<JobSummary> jobs(int n) {
        List<JobSummary> out = new ArrayList<>();
        JobSummary.JobStatus[] statuses = JobSummary.JobStatus.values();
        for (int i = 0; i < n; i++) {
            JobSummary.JobStatus status = statuses[i % statuses.length];
            String reason = status != JobSummary.JobStatus.FAILED ? null
                    : i % 2 == 0 ? "Job aborted " + EVIL : "Job aborted\nline 2 " + EVIL + "\nline 3\nline 4\nline 5";
            out.add(new JobSummary(i, "collect at Job.scala:" + i + " " + EVIL + (i % 3 == 0 ? "x".repeat(80) : ""),
                    i % 4 == 1 ? "described " + EVIL + "\nsecond line" : i % 4 == 2 ? " " : null,
                    i % 5 == 0 ? "group " + EVIL : null, START + 1_000L * i,
                    status == JobSummary.JobStatus.RUNNING ? 0 : START + 1_000L * i + 61_000L * i, status, reason,
                    List.of(3 * i + 2, 3 * i + 1, 3 * i), i % 3 == 1 ? i : -1, 100 + i, 90 + i, i % 3, i % 2, i % 4, 0, 0, 0, 0,
                    i % 6 == 5 ? JobSummary.NOT_RECORDED : 2, i % 3 == 2 ? 1 : 0, Map.of(), List.of()));
        }
        return out;
    }

    private static JobsExecutorsQuery.Jobs page(List<JobSummary> jobs, boolean running) {
        var app = new AppRefs.Resolved(1, "app-1 " + EVIL, running ? null : "2", "ETL — naïve " + EVIL, START,
                running ? 0 : START + 3_600_000, START + 60_000, !running);
        // of every job's stages (listed in descending order) the first ran, the second twice, the last was skipped
        Map<Integer, Integer> attempts = new java.util.HashMap<>();
        for (JobSummary j : jobs) {
            attempts.put(j.stageIds().get(0), 0);
            attempts.put(j.stageIds().get(1), 1);
        }
        return new JobsExecutorsQuery.Jobs(app, jobs, attempts);
    }

    @Test
    void sameBytesAsTheCodeForEveryShapeOfPage() {
        AppTabs.Live live = new AppTabs.Live(START + 61_000, 15);
        for (JobsExecutorsQuery.Jobs p : List.of(page(jobs(24), false), page(jobs(24), true), page(List.of(), false),
                page(jobs(3).subList(0, 2), false))) {
            assertEquals(CodeJobsView.render(p, live), JobsView.render(p, live));
        }
    }

    @Test
    void linksStagesInOrderAndTheSqlExecution() {
        String html = JobsView.render(page(jobs(3), false), new AppTabs.Live(START, 15));
        String app = "/apps/app-1%20%3Cscript%3Ealert%28%27x%27%29%3C%2Fscript%3E%22%26/2";
        assertTrue(html.contains("<tr class=\"job-row\" id=\"job-1\" data-job=\"1\"><td>1<div class=\"small\">"
                + "<a class=\"job-sql\" href=\"" + app + "/sql/1\">SQL 1</a></div>"), html);
        assertTrue(html.contains("<span class=\"stage-ids\"><span class=\"stage-ref\">3</span>, <a class=\"stage-ref\""
                + " href=\"" + app + "/stages/4/1\">4</a>, <a class=\"stage-ref\" href=\"" + app + "/stages/5/0\">5</a>"
                + "</span>"), "ascending, each to its latest attempt, a skipped one as text: " + html);
    }

    @Test
    void escapesNamesGroupsAndReasons() {
        String html = JobsView.render(page(jobs(12), false), new AppTabs.Live(START, 15));
        assertFalse(html.contains("<script>"), html);
        assertTrue(html.contains("<div class=\"muted small\">group group &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
                + "&quot;&amp;</div>"), "the job group as text");
        assertTrue(html.contains("Job aborted &lt;script&gt;"), "the failure reason as text");
        assertTrue(html.contains("title=\"described &lt;script&gt;"), "the description as text");
        assertTrue(html.contains("Jobs (12, 3 failed)"), html);
    }
}
