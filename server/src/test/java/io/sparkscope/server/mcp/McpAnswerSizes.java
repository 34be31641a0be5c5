package io.sparkscope.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bytes of every tool's and prompt's answer with its default page, on whatever database a client is connected to:
 * the arguments are found by asking the server (the newest applications, the first job, the longest stage and SQL
 * execution), so it runs on the demo's data as on a test's. Used by {@code McpToolsTest} and, for the benchmark
 * figures, on its own: {@code McpAnswerSizes <jdbc-url> [server/target/sparkscope.jar]} starts {@code sparkscope mcp}
 * over stdio, as an agent's client does, and prints a table.
 */
public final class McpAnswerSizes {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One call and its answer's size. */
    public record Answer(String call, Map<String, Object> arguments, int bytes, boolean error, String text) {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: McpAnswerSizes <jdbc-url> [sparkscope.jar]");
            System.exit(2);
        }
        String jar = args.length > 1 ? args[1] : "server/target/sparkscope.jar";
        if (!Files.isRegularFile(Path.of(jar))) {
            System.err.println(jar + ": not found; build it with mvn -q -DskipTests package");
            System.exit(2);
        }
        ServerParameters p = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
                .args("-jar", jar, "mcp", "--db", args[0]).build();
        StdioClientTransport transport = new StdioClientTransport(p, new JacksonMcpJsonMapper(new ObjectMapper()));
        transport.setStdErrorHandler(line -> { });
        try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofMinutes(2)).build()) {
            client.initialize();
            List<Answer> answers = measure(client);
            System.out.printf("%-26s %9s  %s%n", "tool or prompt", "bytes", "arguments");
            for (Answer a : answers) {
                System.out.printf("%-26s %,9d  %s%s%n", a.call(), a.bytes(), JSON.writeValueAsString(a.arguments()),
                        a.error() ? "  (error: " + a.text() + ")" : "");
            }
            System.out.printf("%-26s %,9d  (every tool's description and schema)%n", "tools/list",
                    JSON.writeValueAsString(client.listTools().tools()).getBytes(StandardCharsets.UTF_8).length);
        }
    }

    /** Calls every tool (and prompt) once with arguments found on the server. */
    public static List<Answer> measure(McpSyncClient client) throws Exception {
        List<Answer> out = new ArrayList<>();
        JsonNode search = call(client, out, "search_applications", Map.of());
        JsonNode bySaving = call(client, out, "search_applications", Map.of("sort", "saving", "limit", 5));
        String app = bySaving.path("apps").path(0).path("appId").asText(search.path("apps").path(0).path("appId")
                .asText());
        Map<String, Object> appArg = Map.of("appId", app);
        call(client, out, "get_application", appArg);
        call(client, out, "get_findings", appArg);
        JsonNode stages = call(client, out, "list_stages", appArg);
        String stage = stages.path("stages").path(0).path("stage").asText("0.0");
        call(client, out, "get_stage", Map.of("appId", app, "stageId", Integer.parseInt(stage.split("\\.")[0])));
        call(client, out, "what_if", appArg);
        call(client, out, "explain_regression", appArg);
        // the first application (of the newest 100) with a SQL execution
        JsonNode newest = json(client.callTool(new McpSchema.CallToolRequest("search_applications",
                Map.of("limit", 100))));
        for (JsonNode a : newest.path("apps")) {
            Map<String, Object> arg = Map.of("appId", a.path("appId").asText());
            JsonNode sql = json(client.callTool(new McpSchema.CallToolRequest("list_sql_executions", arg)));
            if (sql.path("executions").size() > 0) {
                call(client, out, "list_sql_executions", arg);
                // of the five longest, the one with the largest plan: the answer that can grow
                long widest = -1;
                int most = -1;
                for (int i = 0; i < Math.min(5, sql.path("executions").size()); i++) {
                    long id = sql.path("executions").path(i).path("executionId").asLong();
                    int n = json(client.callTool(new McpSchema.CallToolRequest("get_sql_execution", Map.of("appId",
                            a.path("appId").asText(), "executionId", id)))).path("operatorsTotal").asInt();
                    if (n > most) {
                        most = n;
                        widest = id;
                    }
                }
                call(client, out, "get_sql_execution", Map.of("appId", a.path("appId").asText(), "executionId",
                        widest));
                break;
            }
        }
        JsonNode jobs = call(client, out, "list_jobs", Map.of());
        if (jobs.path("jobs").size() > 0) {
            Map<String, Object> job = Map.of("job", jobs.path("jobs").path(0).path("jobKey").asText());
            JsonNode history = call(client, out, "job_history", job);
            call(client, out, "tune_job", job);
            Map<String, Object> predict = new LinkedHashMap<>(job);
            predict.put("inputBytes", "10GB");
            call(client, out, "predict_runtime", predict);
            JsonNode runs = history.path("runs");
            if (runs.size() >= 2) {
                call(client, out, "compare_runs", Map.of("apps", List.of(runs.path(1).path("appId").asText(),
                        runs.path(0).path("appId").asText())));
                call(client, out, "explain_regression", Map.of("appId", runs.path(0).path("appId").asText()));
            }
        }
        for (String prompt : List.of("why_did_this_fail", "why_is_this_run_slower")) {
            McpSchema.GetPromptResult r = client.getPrompt(new McpSchema.GetPromptRequest(prompt, appArg));
            int bytes = r.messages().stream().mapToInt(m -> ((McpSchema.TextContent) m.content()).text()
                    .getBytes(StandardCharsets.UTF_8).length).sum();
            out.add(new Answer("prompt " + prompt, appArg, bytes, false, null));
        }
        return out;
    }

    private static JsonNode call(McpSyncClient client, List<Answer> out, String tool, Map<String, Object> args)
            throws Exception {
        McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, args));
        String text = text(r);
        out.add(new Answer(tool, args, text.getBytes(StandardCharsets.UTF_8).length, Boolean.TRUE.equals(r.isError()),
                text));
        return Boolean.TRUE.equals(r.isError()) ? JSON.createObjectNode() : JSON.readTree(text);
    }

    private static JsonNode json(McpSchema.CallToolResult r) throws Exception {
        return Boolean.TRUE.equals(r.isError()) ? JSON.createObjectNode() : JSON.readTree(text(r));
    }

    public static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }
}
