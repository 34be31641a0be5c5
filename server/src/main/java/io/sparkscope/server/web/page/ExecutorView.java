package io.sparkscope.server.web.page;

import io.sparkscope.store.query.JobsExecutorsQuery;

/**
 * {@code /apps/{appId}[/{attemptId}]/executors/{executorId}}: one executor (host, cores, lifetime, tasks, why it was
 * removed) and the stage attempts it ran stored tasks in, each linked to the stage and to its task table filtered to
 * this executor, and to its failed tasks there. The markup is executor.jte.
 */
final class ExecutorView {
    private ExecutorView() {
    }

    static String render(JobsExecutorsQuery.ExecutorStages e, AppTabs.Live live) {
        Html h = new Html(8 * 1024);
        JteexecutorGenerated.render(new PageOutput(h), null, e, live);
        return h.toString();
    }
}
