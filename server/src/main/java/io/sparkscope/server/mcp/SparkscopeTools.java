package io.sparkscope.server.mcp;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.whatif.TaskOrder;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.server.web.api.AgentJson;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.http.SearchParams;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.server.web.model.AppWhatIf;
import io.sparkscope.server.web.model.Comparison;
import io.sparkscope.server.web.model.RecurringJob;
import io.sparkscope.server.web.model.RunHistory;
import io.sparkscope.server.web.model.RunPrediction;
import io.sparkscope.server.web.model.SqlData;
import io.sparkscope.server.web.model.WebData;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.SqlQuery;
import io.sparkscope.store.query.StageRow;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * The tools an agent may call, all read-only. Each parses its arguments with the web's checks ({@link ToolArgs}),
 * makes the same {@link WebData} or {@link SqlData} call as the JSON API and answers an {@link AgentJson} shape.
 */
final class SparkscopeTools {
    /** What a tool does with its arguments. */
    interface Handler {
        Object answer(ToolArgs args) throws SQLException;
    }

    /**
     * @param subject the argument an answer of "not stored" is about (appId for an application's tools, job for a
     *                job's: a name is resolved to a stored job first, so only a job key can name none)
     */
    record Tool(String name, String description, ToolSchema schema, String subject, Handler handler) {
    }

    private final WebData data;
    private final SqlData sql;
    private final Prices prices;

    SparkscopeTools(WebData data, SqlData sql, Prices prices) {
        this.data = data;
        this.sql = sql;
        this.prices = prices == null ? Prices.NONE : prices;
    }

    List<Tool> all() {
        return List.of(
                new Tool("search_applications", "Find Spark applications by the search page's filters; newest first"
                        + " unless sorted. Each row: status, duration, worst severity, top findings, saving, waste.",
                        new ToolSchema()
                                .string("appId", "exact application id")
                                .string("name", "application name contains (case-insensitive)")
                                .string("user", "Spark user")
                                .choice("since", "started in the last hour, day or week", "1h", "1d", "1w")
                                .string("startedFrom", "started at or after (2026-11-29, 2026-11-29T10:00:00Z, epoch ms)")
                                .string("startedTo", "started at or before")
                                .string("endedFrom", "ended at or after")
                                .string("endedTo", "ended at or before")
                                .choice("severity", "worst finding", "high", "low", "none")
                                .string("heuristic", "has a finding of this heuristic, e.g. DataSkew")
                                .numberOrText("minWaste", "at least this many idle core-hours")
                                .choice("status", "run status (complete includes runs that failed)", "running", "complete",
                                        "incomplete")
                                .choice("sort", "sort key", "start", "duration", "saving", "waste")
                                .choice("order", "sort order", "desc", "asc")
                                .string(SearchParams.DAG, "Airflow DAG id")
                                .string(SearchParams.TASK, "Airflow task id")
                                .string(SearchParams.PARENT_JOB, "OpenLineage parent job name")
                                .string(SearchParams.PARENT_RUN, "the parent's run id (a UUID)")
                                .page(20), null, this::search),
                new Tool("get_application", "One application's summary: status, figures, cost, \"Fix this first\""
                        + " (the root causes to fix, with the time each saves), its root-cause findings' headlines"
                        + " and key settings. Start here.",
                        new ToolSchema().app().integer("limit", "root causes listed (default 5)"), "appId",
                        a -> summary(a.app(), Params.intValue(a, "limit", 5, 1, ToolArgs.MAX_LIMIT))),
                new Tool("get_findings", "An application's findings whole (message, recommendation, settings advice,"
                        + " saving, details), root causes by saving each followed by its knock-ons.",
                        new ToolSchema().app().choice("severity", "only this severity", "high", "low").page(10),
                        "appId", a -> {
                            var page = a.page(10, ToolArgs.MAX_LIMIT);
                            String sev = Params.oneOf(a, "severity", "high", "low");
                            return AgentJson.findings(data.appFindings(a.app()),
                                    sev == null ? null : sev.toUpperCase(java.util.Locale.ROOT), page);
                        }),
                new Tool("list_stages", "An application's stage attempts, the longest first: duration, tasks,"
                        + " failures, input, shuffle, spill, whether a finding names it.",
                        new ToolSchema().app().page(20), "appId",
                        a -> {
                            var page = a.page(20, ToolArgs.MAX_LIMIT);
                            return AgentJson.stages(data.appStagesAndFindings(a.app()), page);
                        }),
                new Tool("get_stage", "One stage attempt: totals, task-time quartiles (min, 25 %, median, 75 %,"
                        + " max) of every task metric, failure reason, and the findings about it.",
                        new ToolSchema().app().integer("stageId", "stage id").integer("stageAttemptId",
                                "stage attempt (default: the latest)").require("stageId"), "appId", this::stage),
                new Tool("list_sql_executions", "An application's SQL queries (executions), the longest first, with"
                        + " the heuristics that found something in each.",
                        new ToolSchema().app().page(20), "appId", a -> {
                            var page = a.page(20, ToolArgs.MAX_LIMIT);
                            AppDetailQuery.Ref ref = a.app();
                            return AgentJson.sqlExecutions(sql.summaries(ref, false), data.appFindings(ref).findings(),
                                    page, data.now());
                        }),
                new Tool("get_sql_execution", "One SQL execution's plan: its findings, then its operators (those"
                        + " with a finding first) with Spark's metrics and the findings on each, and their edges.",
                        new ToolSchema().app().integer("executionId", "SQL execution id").page(40)
                                .require("executionId"), "appId", this::sqlExecution),
                new Tool("compare_runs", "Two or more runs side by side: metrics (with changes past the threshold"
                        + " marked), differing settings, findings and matched stages.",
                        new ToolSchema().list("apps", "string", "application ids to compare, 2 to "
                                + Comparison.MAX_RUNS + " (\"appId\" or \"appId/attemptId\"), baseline first")
                                .page(20).require("apps"), "apps", a -> {
                            var page = a.page(20, ToolArgs.MAX_LIMIT);
                            return AgentJson.compare(data.compare(Params.appRefs(a, "apps", false,
                                    Comparison.MAX_RUNS)), page);
                        }),
                new Tool("list_jobs", "Jobs with at least two stored runs (recurring jobs), the most recently run"
                        + " first, with their trend.", new ToolSchema().page(20), null,
                        a -> AgentJson.jobs(data.recurringJobs(), a.page(20, ToolArgs.MAX_LIMIT))),
                new Tool("job_history", "A job's runs, the newest first: duration against the median of the runs"
                        + " before, the slow ones marked and what their Regression finding says changed; the trend"
                        + " and what applying past advice did.",
                        new ToolSchema().job().page(20), "job", this::history),
                new Tool("explain_regression", "Why a run was slower than its job's usual: its Regression finding"
                        + " (how much slower, settings changed, plan operators added or removed, the stages that"
                        + " grew, input per byte), or why it has none, and the run to compare it with.",
                        new ToolSchema().app(), "appId", a -> regression(a.app())),
                new Tool("predict_runtime", "Predict a job's run time for an input size, from its stored runs"
                        + " (a line per key stage, with R² and the runs left out as outliers).",
                        new ToolSchema().job().numberOrText("inputBytes", "input size: bytes, or with a unit"
                                + " (512m, 1GB, 10 GiB)").require("inputBytes"), "job", this::predict),
                new Tool("what_if", "Simulate an application's run time with other executor counts (its recorded"
                        + " tasks replayed on N executors), with the cost of each.",
                        new ToolSchema().app().list("executors", "integer", "executor counts to simulate (default:"
                                + " 25 % to 400 % of the run's own)").choice("order", "task order in the simulation",
                                "longest_first", "launch_order"), "appId",
                        a -> {
                            AppDetailQuery.Ref ref = a.app();
                            List<Integer> executors = Params.wholeNumbers(a, "executors", 1, AppWhatIf.MAX_EXECUTORS,
                                    AppWhatIf.MAX_COUNTS, AppWhatIf.EXECUTORS_HOW_TO);
                            TaskOrder order = Params.enumValue(a, "order", TaskOrder.class);
                            return AgentJson.whatIf(data.whatIf(ref, order, executors, prices));
                        }),
                new Tool("tune_job", "The settings for a job's next run (each with its current value, the findings"
                        + " behind it and the saving), the advice left out and why, and the predicted time and cost;"
                        + " as --conf options.", new ToolSchema().job(), "job",
                        a -> AgentJson.tune(data.tune(job(a), prices))));
    }

    /** What get_application answers (also the prompts' facts). */
    Map<String, Object> summary(AppDetailQuery.Ref ref, int rootCauses) throws SQLException {
        AppDetail d = data.app(ref);
        return AgentJson.app(d, prices, data.triedWithoutHelp(d), rootCauses);
    }

    private Object search(ToolArgs a) throws SQLException {
        AgentJson.Page page = a.page(20, ToolArgs.MAX_LIMIT);
        a.withDefault("limit", String.valueOf(page.limit())).withDefault("offset", String.valueOf(page.offset()));
        SearchParams p = SearchParams.parse(a, data.now(), true);
        return AgentJson.search(data.search(p.filter()), page, prices);
    }

    private Object stage(ToolArgs a) throws SQLException {
        AppDetailQuery.Ref ref = a.app();
        int stageId = Params.intValue(a, "stageId", -1, 0, Integer.MAX_VALUE);
        Integer attempt = a.first("stageAttemptId") == null ? null
                : Params.intValue(a, "stageAttemptId", 0, 0, Integer.MAX_VALUE);
        AppDetail d = data.appStagesAndFindings(ref);
        StageRow found = null;
        for (StageRow s : d.stages()) {
            if (s.stageId() == stageId && (attempt == null ? found == null || s.attemptId() > found.attemptId()
                    : s.attemptId() == attempt)) {
                found = s;
            }
        }
        if (found == null) {
            throw WebException.badParam(attempt == null ? "stageId" : "stageAttemptId", "no stage " + stageId
                    + (attempt == null ? "" : "." + attempt) + " in application " + d.header().pathKey()
                    + " (list_stages lists them)");
        }
        return AgentJson.stage(d, found);
    }

    private Object sqlExecution(ToolArgs a) throws SQLException {
        AgentJson.Page page = a.page(40, ToolArgs.MAX_LIMIT);
        AppDetailQuery.Ref ref = a.app();
        long id = Params.longValue(a, "executionId", 0, Long.MAX_VALUE);
        List<Finding> findings = data.appFindings(ref).findings();
        SqlQuery.Executions e;
        try {
            e = sql.one(ref, id);
        } catch (WebException notFound) {
            throw WebException.badParam("executionId", notFound.getMessage() + " (list_sql_executions lists them)");
        }
        return AgentJson.sqlExecution(e, findings, page, data.now());
    }

    private Object history(ToolArgs a) throws SQLException {
        AgentJson.Page page = a.page(20, ToolArgs.MAX_LIMIT);
        String key = job(a);
        RunHistory h = data.history(key);
        if (h.runs().isEmpty()) {
            throw WebException.badParam(a.first("job") != null ? "job" : "name", "no stored run of job '" + key
                    + "' (list_jobs lists the jobs)");
        }
        RecurringJob job = data.recurringJobs().stream().filter(j -> j.job().key().equals(key)).findFirst()
                .orElse(null);
        return AgentJson.history(h, job, page, prices);
    }

    /** What explain_regression answers for one run (also the "why is this run slower" prompt's facts). */
    Map<String, Object> regression(AppDetailQuery.Ref ref) throws SQLException {
        AppDetail d = data.app(ref);
        RunHistory.Point point = null;
        String previous = null;
        if (d.header().jobKey() != null) {
            List<RunHistory.Point> runs = data.history(d.header().jobKey()).runs();
            for (int i = 0; i < runs.size(); i++) {
                if (runs.get(i).run().pathKey().equals(d.header().pathKey())) {
                    point = runs.get(i);
                    previous = i > 0 ? runs.get(i - 1).run().pathKey() : null;
                }
            }
        }
        return AgentJson.regression(d, point, previous);
    }

    private Object predict(ToolArgs a) throws SQLException {
        Long bytes = Params.size(a, "inputBytes", 1, RunPrediction.MAX_INPUT_BYTES);
        if (bytes == null) {
            throw WebException.badParam("inputBytes", "required: the input size to predict the run time for");
        }
        return AgentJson.prediction(data.predict(job(a), bytes));
    }

    /** The job {@code job} or {@code name} names, as the JSON API resolves it; an error naming the argument else. */
    private String job(ToolArgs a) throws SQLException {
        String job = Params.text(a, "job");
        String name = Params.text(a, "name");
        if (job == null && name == null) {
            throw WebException.badParam("name", "required: the application name (name), or the job key (job)");
        }
        WebData.JobLookup lookup = data.lookup(job, name);
        if (lookup.jobKey() == null) {
            if (!lookup.candidates().isEmpty()) {
                throw lookup.ambiguous();
            }
            throw WebException.badParam("name", lookup.noJobSentence());
        }
        return lookup.jobKey();
    }
}
