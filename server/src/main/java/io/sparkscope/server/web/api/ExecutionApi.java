package io.sparkscope.server.web.api;

import io.javalin.http.Context;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.http.Urls;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.server.web.model.ExecutionData;
import io.sparkscope.store.query.JobsExecutorsQuery;
import io.sparkscope.store.query.TaskListQuery;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Jobs, executors and task lists under {@code /api/v1/apps/{id}[/{attempt}]} in the shape and with the parameters
 * of Spark's REST API v1 ({@code …/jobs[?status=]}, {@code …/jobs/{jobId}}, {@code …/executors},
 * {@code …/allexecutors}, {@code …/stages/{s}/{a}/taskList?offset=&length=&sortBy=&status=}), so a script written
 * for a History Server reads them unchanged.
 */
public final class ExecutionApi {
    private static final List<String> JOB_STATUSES = List.of("RUNNING", "SUCCEEDED", "FAILED", "UNKNOWN");

    private final ExecutionData data;

    public ExecutionApi(ExecutionData data) {
        this.data = data;
    }

    /** Newest job first, as Spark lists them; {@code ?status=} (repeatable) keeps those statuses. */
    public void jobs(Context ctx) throws SQLException {
        Set<String> statuses = jobStatuses(ctx);
        List<SparkRestJson.Job> out = new ArrayList<>();
        List<JobSummary> jobs = new ArrayList<>(data.jobs(Params.appRef(ctx)).jobs());
        jobs.sort(Comparator.comparingInt(JobSummary::jobId).reversed());
        for (JobSummary j : jobs) {
            if (statuses.isEmpty() || statuses.contains(j.status().name())) {
                out.add(SparkRestJson.Job.of(j));
            }
        }
        json(ctx, out);
    }

    public void job(Context ctx) throws SQLException {
        String raw = ctx.pathParam("jobId");
        int jobId;
        try {
            jobId = Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            throw WebException.badParam("jobId", "'" + raw + "' is not a job id (a whole number)");
        }
        var ref = Params.appRef(ctx);
        JobSummary job = data.jobs(ref).jobs().stream().filter(j -> j.jobId() == jobId).findFirst()
                .orElseThrow(() -> WebException.notFound("unknown job: " + jobId + " in application " + ref));
        json(ctx, SparkRestJson.Job.of(job));
    }

    /** Executors one API answer lists unless {@code ?length=} says otherwise: every executor of nearly every run. */
    public static final int EXECUTORS_LENGTH = 1_000;
    /** Most executors one API answer lists (about 1.5 kB of JSON each); {@code ?offset=} pages on. */
    public static final int EXECUTORS_MAX_LENGTH = 10_000;

    /** Spark's {@code executors}: the executors still alive, by id descending (its "active" index read backwards). */
    public void executors(Context ctx) throws SQLException {
        executorList(ctx, JobsExecutorsQuery.State.ACTIVE, JobsExecutorsQuery.Order.ID_DESCENDING);
    }

    /** Spark's {@code allexecutors}: every executor, removed ones too, by id. */
    public void allExecutors(Context ctx) throws SQLException {
        executorList(ctx, JobsExecutorsQuery.State.ALL, JobsExecutorsQuery.Order.ID);
    }

    /**
     * Spark lists every executor at once; an application that added and removed a hundred thousand made that a
     * 54 MB answer, so here one page is listed ({@code ?offset=&length=}, by default the first
     * {@value #EXECUTORS_LENGTH}) and the header {@code X-Total-Count} says how many match in all. A header
     * {@code Link: <…?offset=&length=&after=ID>; rel="next"} names the next page; its {@code after} (the last
     * executor listed) makes that page start right after this one.
     */
    private void executorList(Context ctx, JobsExecutorsQuery.State state, JobsExecutorsQuery.Order order)
            throws SQLException {
        JobsExecutorsQuery.Request r = ExecutionData.executorRequest(ctx, state, order, EXECUTORS_LENGTH,
                EXECUTORS_MAX_LENGTH);
        JobsExecutorsQuery.ExecutorPage e = data.executors(Params.appRef(ctx), r);
        var app = e.app();
        long end = app.endTime() > 0 ? app.endTime() : app.lastEventTime();
        long appDuration = app.startTime() > 0 && end >= app.startTime() ? end - app.startTime() : -1;
        ctx.header("X-Total-Count", String.valueOf(e.matching()));
        if (!e.executors().isEmpty() && (long) r.offset() + e.executors().size() < e.matching()) {
            // The next page by cursor (RFC 8288): it starts after this page's last executor, so it reads its own
            // rows only, where ?offset= counts through the index to get there
            Map<String, List<String>> q = new LinkedHashMap<>();
            q.put("offset", List.of(String.valueOf(r.offset() + e.executors().size())));
            q.put("length", List.of(String.valueOf(r.length())));
            q.put("after", List.of(e.executors().get(e.executors().size() - 1).executorId()));
            ctx.header("Link", "<" + Urls.sameServer(ctx.path(), q) + ">; rel=\"next\"");
        }
        json(ctx, e.executors().stream().map(x -> SparkRestJson.Executor.of(x, e.taskCpus(), appDuration)).toList());
    }

    /**
     * Spark's taskList: {@code offset} (0), {@code length} (20), {@code sortBy} ({@code ID}, {@code runtime} /
     * {@code INCREASING_RUNTIME}, {@code -runtime} / {@code DECREASING_RUNTIME}), {@code status} (repeatable).
     */
    public void taskList(Context ctx) throws SQLException {
        TaskListQuery.Sort sort = TaskListQuery.Sort.ID;
        boolean desc = false;
        String sortBy = Params.text(ctx, "sortBy");
        if (sortBy != null) {
            switch (sortBy.toLowerCase(Locale.ROOT)) {
                case "id" -> { }
                case "runtime", "increasing_runtime" -> sort = TaskListQuery.Sort.RUN_TIME;
                case "-runtime", "decreasing_runtime" -> {
                    sort = TaskListQuery.Sort.RUN_TIME;
                    desc = true;
                }
                default -> throw WebException.badParam("sortBy", "'" + sortBy
                        + "' is not one of ID, runtime (INCREASING_RUNTIME), -runtime (DECREASING_RUNTIME)");
            }
        }
        var r = new TaskListQuery.Request(Params.stageNumber(ctx, "stageId"), Params.stageNumber(ctx, "stageAttemptId"),
                ExecutionData.offset(ctx), ExecutionData.length(ctx, 20), sort, desc, ExecutionData.statuses(ctx),
                ExecutionData.executor(ctx));
        List<SparkRestJson.Task> out = new ArrayList<>();
        for (TaskRecord t : data.tasks(Params.appRef(ctx), r).tasks()) {
            out.add(SparkRestJson.Task.of(t));
        }
        json(ctx, out);
    }

    private static Set<String> jobStatuses(Context ctx) {
        Set<String> out = new LinkedHashSet<>();
        for (String raw : ctx.queryParams("status")) {
            String s = raw.strip().toUpperCase(Locale.ROOT);
            if (!JOB_STATUSES.contains(s)) {
                throw WebException.badParam("status", "'" + raw.strip() + "' is not a job status ("
                        + String.join(", ", JOB_STATUSES).toLowerCase(Locale.ROOT) + ")");
            }
            out.add(s);
        }
        return out;
    }

    private static void json(Context ctx, Object value) {
        ctx.contentType("application/json").result(ApiJson.write(value));
    }
}
