package io.sparkscope.server.web.page;

import io.javalin.http.Context;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.model.ExecutionData;
import io.sparkscope.store.query.JobsExecutorsQuery;
import io.sparkscope.store.query.TaskListQuery;

import java.sql.SQLException;
import java.util.Locale;
import java.util.function.LongSupplier;

/** The application's jobs and executors tabs and a stage's paged task table: parse, one data call, render. */
public final class ExecutionPages {
    /** Rows of the task table per page unless {@code ?length=} says otherwise. */
    static final int PAGE_LENGTH = 100;
    /** Most executor rows one page shows (about 1 kB of HTML each). */
    static final int EXECUTORS_MAX_LENGTH = 1_000;

    private final ExecutionData data;
    private final LongSupplier clock;

    /** @param clock now in epoch ms: whether the application still runs, so its tab updates itself */
    public ExecutionPages(ExecutionData data, LongSupplier clock) {
        this.data = data;
        this.clock = clock;
    }

    public void jobs(Context ctx) throws SQLException {
        html(ctx, JobsView.render(data.jobs(Params.appRef(ctx)), AppTabs.Live.of(ctx, clock)));
    }

    /** {@code ?state=all|active|removed&offset=&length=}: one page of the executors, in the order they appeared. */
    public void executors(Context ctx) throws SQLException {
        String state = Params.oneOf(ctx, "state", "all", "active", "removed");
        var r = ExecutionData.executorRequest(ctx, state == null ? JobsExecutorsQuery.State.ALL
                        : JobsExecutorsQuery.State.valueOf(state.toUpperCase(Locale.ROOT)),
                JobsExecutorsQuery.Order.APPEARED, PAGE_LENGTH, EXECUTORS_MAX_LENGTH);
        html(ctx, ExecutorsView.render(data.executors(Params.appRef(ctx), r), r, AppTabs.Live.of(ctx, clock)));
    }

    /** {@code …/executors/{executorId}}: one executor and the stages it ran tasks in, each linked to those tasks. */
    public void executor(Context ctx) throws SQLException {
        String id = Params.checkId("executorId", ctx.pathParam("executorId"));
        html(ctx, ExecutorView.render(data.executor(Params.appRef(ctx), id), AppTabs.Live.of(ctx, clock)));
    }

    /**
     * {@code ?status=&executor=&sort=&order=&offset=&length=}: the filters and order of the table, server-side, so
     * paging a 100 000-task stage reads one page of rows.
     */
    public void tasks(Context ctx) throws SQLException {
        TaskListQuery.Sort sort = Params.enumValue(ctx, "sort", TaskListQuery.Sort.class);
        String order = Params.oneOf(ctx, "order", "asc", "desc");
        boolean desc = order == null ? sort != null && sort != TaskListQuery.Sort.ID : order.equals("desc");
        var r = new TaskListQuery.Request(Params.stageNumber(ctx, "stageId"), Params.stageNumber(ctx, "stageAttemptId"),
                ExecutionData.offset(ctx), ExecutionData.length(ctx, PAGE_LENGTH),
                sort == null ? TaskListQuery.Sort.ID : sort, desc, ExecutionData.statuses(ctx),
                ExecutionData.executor(ctx));
        html(ctx, TasksView.render(data.tasks(Params.appRef(ctx), r), r, AppTabs.Live.of(ctx, clock)));
    }

    private static void html(Context ctx, String page) {
        ctx.contentType("text/html; charset=utf-8").result(page);
    }
}
