package io.sparkscope.server.mcp;

import io.sparkscope.server.web.api.AgentJson;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.model.WebData;
import io.sparkscope.store.query.AppDetail;
import io.sparkscope.store.query.AppDetailQuery;
import io.sparkscope.store.query.StageRow;
import io.modelcontextprotocol.spec.McpSchema;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The prompts a user picks in an agent's client: "why did this fail" and "why is this run slower". Each is one user
 * message that asks the question, gives the facts Sparkscope already has (so the model starts from them rather than
 * from guesses) and names the tools that tell more.
 */
final class SparkscopePrompts {
    /** Longest failure reason quoted (a Java stack trace is mostly noise past its first lines). */
    private static final int MAX_REASON = 600;
    private static final int FAILED_STAGES = 3;

    interface Handler {
        McpSchema.GetPromptResult messages(ToolArgs args) throws SQLException;
    }

    record Prompt(McpSchema.Prompt prompt, Set<String> argumentNames, Handler handler) {
    }

    private final WebData data;
    private final SparkscopeTools tools;

    SparkscopePrompts(WebData data, SparkscopeTools tools) {
        this.data = data;
        this.tools = tools;
    }

    List<Prompt> all() {
        McpSchema.PromptArgument appId = new McpSchema.PromptArgument("appId", "Spark application id", true);
        McpSchema.PromptArgument attemptId = new McpSchema.PromptArgument("attemptId",
                "attempt id (omit for the newest)", false);
        return List.of(
                new Prompt(new McpSchema.Prompt("why_did_this_fail", "Why did this Spark application fail?",
                        List.of(appId, attemptId)), Set.of("appId", "attemptId"), this::whyFail),
                new Prompt(new McpSchema.Prompt("why_is_this_run_slower",
                        "Why is this run slower than its job's earlier runs?", List.of(appId, attemptId,
                        new McpSchema.PromptArgument("baseline", "a faster run to compare with (default: the job's"
                                + " previous run)", false))), Set.of("appId", "attemptId", "baseline"),
                        this::whySlower));
    }

    private McpSchema.GetPromptResult whyFail(ToolArgs a) throws SQLException {
        AppDetailQuery.Ref ref = a.app();
        Map<String, Object> summary = tools.summary(ref, 5);
        AppDetail d = data.appStagesAndFindings(ref);
        StringBuilder s = new StringBuilder("Why did the Spark application ").append(d.header().pathKey())
                .append(" fail? Explain the cause in plain words: which stage or job failed, with which error, why,"
                        + " and what to change. Base every statement on Sparkscope's data: its summary and the failed"
                        + " stages are below; get_findings, list_stages and get_stage tell more.\n");
        if (!"FAILED".equals(d.header().status().name())) {
            s.append("\nNote: Sparkscope records this run as ").append(d.header().status().name())
                    .append(", not FAILED: say so, then explain its most serious problems instead.\n");
        }
        s.append("\nSummary (get_application):\n").append(AgentJson.write(summary)).append('\n');
        List<StageRow> failed = d.stages().stream().filter(st -> st.failureReason() != null
                && !st.failureReason().isBlank()).limit(FAILED_STAGES).toList();
        if (!failed.isEmpty()) {
            s.append("\nFailed stages:\n");
            for (StageRow st : failed) {
                String reason = st.failureReason().strip();
                s.append("- stage ").append(st.stageId()).append('.').append(st.attemptId()).append(": ")
                        .append(reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON) + " …" : reason)
                        .append('\n');
            }
        }
        return message("Why did " + d.header().pathKey() + " fail?", s.toString());
    }

    private McpSchema.GetPromptResult whySlower(ToolArgs a) throws SQLException {
        AppDetailQuery.Ref ref = a.app();
        String given = Params.text(a, "baseline");
        if (given != null) {
            for (String part : given.split("/", 2)) {
                Params.checkId("baseline", part);
            }
        }
        Map<String, Object> facts = tools.regression(ref);
        String other = given != null ? given : (String) facts.get("previousRun");
        String key = ref.appId() + (ref.attemptId() == null ? "" : "/" + ref.attemptId());
        StringBuilder s = new StringBuilder("Why is the Spark run ").append(key).append(" slower than")
                .append(other == null ? " its job's usual runs" : " " + other).append("? Name what changed (data"
                        + " size, settings, the query plan, the stages that grew) and which change explains the time;"
                        + " then say what to do. Base every statement on Sparkscope's data.\n");
        s.append("\nSparkscope's explanation (explain_regression):\n").append(AgentJson.write(facts)).append('\n');
        if (other != null) {
            s.append("\nNext: call compare_runs with apps [\"").append(other).append("\", \"").append(key)
                    .append("\"] for every metric, setting and stage side by side, and job_history for the trend.\n");
        } else {
            s.append("\nThere is no earlier run of its job to compare with: use get_findings and list_stages.\n");
        }
        return message("Why is " + key + " slower?", s.toString());
    }

    private static McpSchema.GetPromptResult message(String description, String text) {
        return new McpSchema.GetPromptResult(description, List.of(new McpSchema.PromptMessage(McpSchema.Role.USER,
                new McpSchema.TextContent(text))));
    }
}
