package io.sparkscope.server.web.model;

import io.javalin.http.Context;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.JobsExecutorsQuery;
import io.sparkscope.store.query.TaskListQuery;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What the jobs, executors and task-table views read (the pages and their Spark-shaped API alike): one store query
 * each, a 404 naming what is not stored, and the task table's parameters read and checked once for both.
 */
public final class ExecutionData {
    /** Tasks one page or API answer may hold. */
    public static final int MAX_LENGTH = 100_000;
    /** Spark's task statuses, as its {@code status=} parameter takes them (case-insensitive). */
    public static final List<String> TASK_STATUSES = List.of("SUCCESS", "FAILED", "KILLED", "RUNNING");

    private final JobsExecutorsQuery jobsExecutors;
    private final TaskListQuery tasks;

    public ExecutionData(DataSource dataSource) {
        this.jobsExecutors = new JobsExecutorsQuery(dataSource);
        this.tasks = new TaskListQuery(dataSource);
    }

    public JobsExecutorsQuery.Jobs jobs(AppDetailQuery.Ref ref) throws SQLException {
        return jobsExecutors.jobs(ref.appId(), ref.attemptId()).orElseThrow(() -> noApp(ref));
    }

    /** One page of the executors (an application may have had a hundred thousand): never the whole list. */
    public JobsExecutorsQuery.ExecutorPage executors(AppDetailQuery.Ref ref, JobsExecutorsQuery.Request r)
            throws SQLException {
        return jobsExecutors.executorPage(ref.appId(), ref.attemptId(), r).orElseThrow(() -> noApp(ref));
    }

    /**
     * {@code ?offset=&length=&after=} of an executor list, {@code length} at most {@code max} (default {@code dflt});
     * {@code after}, an executor id, is the cursor the list's own links carry (the rows after that executor).
     */
    public static JobsExecutorsQuery.Request executorRequest(Context ctx, JobsExecutorsQuery.State state,
                                                             JobsExecutorsQuery.Order order, int dflt, int max) {
        return new JobsExecutorsQuery.Request(state, order, offset(ctx), Params.intValue(ctx, "length", dflt, 1, max),
                Params.checkId("after", Params.text(ctx, "after")));
    }

    /** An executor and the stages it ran stored tasks in; 404 when neither the executor nor a task of it is stored. */
    public JobsExecutorsQuery.ExecutorStages executor(AppDetailQuery.Ref ref, String executorId) throws SQLException {
        JobsExecutorsQuery.ExecutorStages e = jobsExecutors.executorStages(ref.appId(), ref.attemptId(), executorId)
                .orElseThrow(() -> noApp(ref));
        if (e.executor() == null && e.stages().isEmpty()) {
            throw WebException.notFound("no executor " + executorId + " in application " + ref);
        }
        return e;
    }

    public TaskListQuery.Page tasks(AppDetailQuery.Ref ref, TaskListQuery.Request r) throws SQLException {
        TaskListQuery.Result result = tasks.load(ref.appId(), ref.attemptId(), r);
        return switch (result.outcome()) {
            case NO_APPLICATION -> throw noApp(ref);
            case NO_STAGE -> throw WebException.notFound("no stage " + r.stageId() + "." + r.stageAttemptId()
                    + " (stage id . attempt) in application " + ref);
            case FOUND -> result.page();
        };
    }

    private static WebException noApp(AppDetailQuery.Ref ref) {
        return WebException.notFound("no application " + ref.appId()
                + (ref.attemptId() == null ? "" : " attempt " + ref.attemptId()) + " in the database");
    }

    /** {@code ?status=} as Spark reads it: repeated or comma-separated, any case; empty for all. */
    public static Set<String> statuses(Context ctx) {
        Set<String> out = new LinkedHashSet<>();
        for (String raw : ctx.queryParams("status")) {
            for (String part : raw.split(",")) {
                String s = part.strip().toUpperCase(Locale.ROOT);
                if (s.isEmpty() || s.equals("ALL")) {
                    continue;
                }
                if (!TASK_STATUSES.contains(s)) {
                    throw WebException.badParam("status", "'" + part.strip() + "' is not a task status ("
                            + String.join(", ", TASK_STATUSES).toLowerCase(Locale.ROOT) + ")");
                }
                out.add(s);
            }
        }
        return out;
    }

    /** {@code ?executor=}: an executor id (letters, digits, . _ : -), or null for all. */
    public static String executor(Context ctx) {
        return Params.checkId("executor", Params.text(ctx, "executor"));
    }

    public static int offset(Context ctx) {
        return Params.intValue(ctx, "offset", 0, 0, Integer.MAX_VALUE - MAX_LENGTH);
    }

    public static int length(Context ctx, int dflt) {
        return Params.intValue(ctx, "length", dflt, 1, MAX_LENGTH);
    }
}
