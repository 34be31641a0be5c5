package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.server.mcp.McpAnswerSizes;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MCP server on a served database, through the SDK's own client: over streamable HTTP (serve --mcp, with a
 * token) and over stdio (the {@code sparkscope mcp} command in a process of its own, as an agent's client starts it).
 */
class McpToolsTest {
    private static final String TOKEN = "s3cret-token";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<Long> ETL = List.of(600_000L, 660_000L, 540_000L, 600_000L, 1_800_000L);
    private static final int FILLERS = 25;
    private static PGSimpleDataSource ds;
    private static WebServer server;
    private static String base;
    private static McpSyncClient client;

    @BeforeAll
    static void serve() {
        ds = (PGSimpleDataSource) WebFixture.newDatabase();
        long t = WebFixture.NOW - 10 * WebFixture.DAY;
        for (int i = 0; i < ETL.size(); i++) {
            var spec = SnapshotBuilder.syntheticSpec("app-etl-" + i, "etl-daily", "alice", t + i * WebFixture.DAY,
                    ETL.get(i));
            if (i == ETL.size() - 1) {
                spec = spec.withConf("spark.sql.shuffle.partitions", "800");
            }
            WebFixture.write(ds, SnapshotBuilder.synthetic(spec));
        }
        WebFixture.write(ds, SnapshotBuilder.rich("app-rich", null, true));
        WebFixture.write(ds, SnapshotBuilder.failingStageCancelsOthers("app-failing", "failing job", "frank",
                WebFixture.NOW - WebFixture.HOUR));
        for (int i = 0; i < FILLERS; i++) {
            WebFixture.write(ds, SnapshotBuilder.synthetic(SnapshotBuilder.syntheticSpec("app-filler-" + i,
                    "filler " + i, "erin", WebFixture.NOW - 20 * WebFixture.DAY - i * WebFixture.HOUR, 60_000)));
        }
        server = new WebServer(ds, new WebServer.Options(null, TOKEN), () -> WebFixture.NOW).withMcp();
        base = "http://127.0.0.1:" + server.start("127.0.0.1", 0);
        client = http(TOKEN);
        client.initialize();
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.stop();
        }
    }

    private static McpSyncClient http(String token) {
        var b = HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp");
        if (token != null) {
            b.requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token));
        }
        return McpClient.sync(b.build()).requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(20)).build();
    }

    private static JsonNode answer(String tool, Map<String, Object> args) throws Exception {
        McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, args));
        String text = McpAnswerSizes.text(r);
        assertFalse(Boolean.TRUE.equals(r.isError()), tool + " " + args + ": " + text);
        return JSON.readTree(text);
    }

    private static String error(String tool, Map<String, Object> args) {
        McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, args));
        String text = McpAnswerSizes.text(r);
        assertTrue(Boolean.TRUE.equals(r.isError()), tool + " " + args + " should fail: " + text);
        assertFalse(text.contains("\n") || text.contains("Exception") || text.contains("at io."),
                "one line, no stack trace: " + text);
        return text;
    }

    @Test
    void listsTheToolsAndPromptsReadOnly() {
        List<McpSchema.Tool> tools = client.listTools().tools();
        List<String> names = tools.stream().map(McpSchema.Tool::name).toList();
        assertEquals(List.of("search_applications", "get_application", "get_findings", "list_stages", "get_stage",
                "list_sql_executions", "get_sql_execution", "compare_runs", "list_jobs", "job_history",
                "explain_regression", "predict_runtime", "what_if", "tune_job"), names);
        for (McpSchema.Tool t : tools) {
            assertTrue(t.annotations().readOnlyHint(), t.name());
        }
        assertEquals(List.of("why_did_this_fail", "why_is_this_run_slower"),
                client.listPrompts().prompts().stream().map(McpSchema.Prompt::name).toList());
    }

    @Test
    void searchPagesWithTheSearchPagesFilters() throws Exception {
        JsonNode first = answer("search_applications", Map.of("limit", 10));
        int total = ETL.size() + 2 + FILLERS;
        assertEquals(total, first.path("appsTotal").asInt());
        assertEquals("showing 1–10 of " + total, first.path("showing").asText());
        assertEquals(10, first.path("apps").size());
        JsonNode second = answer("search_applications", Map.of("limit", 10, "cursor", first.path("nextCursor")
                .asText()));
        assertEquals("showing 11–20 of " + total, second.path("showing").asText());
        assertNotEquals(first.path("apps").path(0).path("appId"), second.path("apps").path(0).path("appId"));
        JsonNode etl = answer("search_applications", Map.of("name", "etl", "user", "alice", "sort", "duration"));
        assertEquals(ETL.size(), etl.path("appsTotal").asInt());
        assertEquals("app-etl-4", etl.path("apps").path(0).path("appId").asText(), "the longest first");
        JsonNode failing = answer("search_applications", Map.of("heuristic", "TaskFailure"));
        assertEquals("app-failing", failing.path("apps").path(0).path("appId").asText(), failing.toString());
    }

    @Test
    void everyToolAnswers() throws Exception {
        JsonNode app = answer("get_application", Map.of("appId", "app-failing"));
        assertTrue(app.path("summary").asText().contains("failed: 2 job(s)"), app.path("summary").asText());
        assertTrue(app.has("fixFirst"));
        assertEquals("app-failing", app.path("app").path("appId").asText());

        JsonNode findings = answer("get_findings", Map.of("appId", "app-rich", "limit", 2));
        assertTrue(findings.path("findingsTotal").asInt() > 0, findings.toString());
        assertTrue(findings.path("findings").size() <= 2);

        JsonNode stages = answer("list_stages", Map.of("appId", "app-rich"));
        assertTrue(stages.path("stagesTotal").asInt() >= 3, stages.toString());
        JsonNode stage = answer("get_stage", Map.of("appId", "app-failing", "stageId", 0));
        assertEquals(0, stage.path("stage").path("stageId").asInt());
        assertFalse(stage.path("stage").path("failureReason").asText().isEmpty(), stage.toString());

        JsonNode sqls = answer("list_sql_executions", Map.of("appId", "app-rich"));
        assertTrue(sqls.path("executionsTotal").asInt() > 0, sqls.toString());
        JsonNode sql = answer("get_sql_execution", Map.of("appId", "app-rich", "executionId", 0, "limit", 3));
        assertEquals(4, sql.path("operatorsTotal").asInt(), sql.toString());
        assertEquals("showing 1–3 of 4", sql.path("showing").asText());
        assertTrue(sql.toString().contains("Exchange"), sql.toString());

        JsonNode compare = answer("compare_runs", Map.of("apps", List.of("app-etl-3", "app-etl-4")));
        assertEquals(2, compare.path("apps").size());
        assertTrue(compare.toString().contains("spark.sql.shuffle.partitions"), "the changed setting");

        JsonNode jobs = answer("list_jobs", Map.of());
        String job = jobs.path("jobs").path(0).path("jobKey").asText();
        assertFalse(job.isEmpty(), jobs.toString());
        JsonNode history = answer("job_history", Map.of("name", "etl-daily"));
        assertEquals(ETL.size(), history.path("runsTotal").asInt());
        assertEquals("app-etl-4", history.path("runs").path(0).path("appId").asText(), "newest first");
        assertTrue(history.path("runs").path(0).path("slow").asBoolean(), history.toString());
        assertEquals("SLOWER", history.path("trend").asText());

        JsonNode regression = answer("explain_regression", Map.of("appId", "app-etl-4"));
        assertEquals("app-etl-3", regression.path("previousRun").asText());
        assertTrue(regression.path("explanation").toString().contains("3.0× the median (10 min 00 s)"),
                regression.toString());

        JsonNode predicted = answer("predict_runtime", Map.of("name", "etl-daily", "inputBytes", "10GB"));
        assertEquals(10L << 30, predicted.path("inputBytes").asLong());
        JsonNode whatIf = answer("what_if", Map.of("appId", "app-rich", "executors", List.of(1, 2, 4)));
        assertEquals("app-rich", whatIf.path("appId").asText());
        JsonNode tune = answer("tune_job", Map.of("job", job));
        assertTrue(tune.has("settings"), tune.toString());
    }

    @Test
    void badArgumentsAreNamed() {
        assertEquals("appId: no application nope in the database", error("get_application", Map.of("appId", "nope")));
        assertEquals("appId: required: the Spark application id, e.g. app-20261129101500-0001 or"
                + " application_1795_0001", error("get_findings", Map.of()));
        assertTrue(error("search_applications", Map.of("limit", 5000)).startsWith("limit: 5000 is outside 1…200"));
        assertTrue(error("search_applications", Map.of("since", "1y")).startsWith("since: '1y' is not one of"));
        assertTrue(error("search_applications", Map.of("cursor", "x")).startsWith("cursor: 'x' is not a cursor"));
        assertTrue(error("get_application", Map.of("appId", "app-rich", "app_id", "x"))
                .startsWith("app_id: unknown argument; this tool takes appId, attemptId, limit"));
        assertTrue(error("get_stage", Map.of("appId", "app-rich", "stageId", 99)).startsWith("stageId: no stage 99"));
        assertTrue(error("get_sql_execution", Map.of("appId", "app-rich", "executionId", 999))
                .startsWith("executionId: no SQL execution 999"));
        assertTrue(error("compare_runs", Map.of("apps", List.of("app-rich"))).startsWith("apps: give two or more"));
        assertTrue(error("compare_runs", Map.of("apps", List.of("app-rich", "nope"))).startsWith("apps: no application"));
        assertTrue(error("predict_runtime", Map.of("name", "etl-daily")).startsWith("inputBytes: required"));
        assertTrue(error("predict_runtime", Map.of("name", "etl-daily", "inputBytes", "lots"))
                .startsWith("inputBytes: 'lots' is not a size"));
        assertTrue(error("job_history", Map.of("name", "no such job")).startsWith("name: No run of an application"));
        assertTrue(error("tune_job", Map.of("job", "no such key")).startsWith("job: "));
        assertTrue(error("what_if", Map.of("appId", "app-rich", "order", "random"))
                .startsWith("order: 'random' is not one of longest_first, launch_order"));
        assertTrue(error("what_if", Map.of("appId", "app-rich", "executors", List.of(0)))
                .startsWith("executors: 0 is outside"));
        McpSchema.GetPromptRequest bad = new McpSchema.GetPromptRequest("why_did_this_fail", Map.of("appId", "nope"));
        Exception e = assertThrows(Exception.class, () -> client.getPrompt(bad));
        assertTrue(e.getMessage().contains("appId: no application nope"), e.getMessage());
    }

    @Test
    void promptsCarryTheFacts() {
        String fail = text(client.getPrompt(new McpSchema.GetPromptRequest("why_did_this_fail",
                Map.of("appId", "app-failing"))));
        assertTrue(fail.contains("Failed stages:") && fail.contains("stage 0.0"), fail);
        String slower = text(client.getPrompt(new McpSchema.GetPromptRequest("why_is_this_run_slower",
                Map.of("appId", "app-etl-4"))));
        assertTrue(slower.contains("compare_runs with apps [\"app-etl-3\", \"app-etl-4\"]"), slower);
    }

    private static String text(McpSchema.GetPromptResult r) {
        return ((McpSchema.TextContent) r.messages().get(0).content()).text();
    }

    @Test
    void theTokenIsRequired() throws Exception {
        for (String token : new String[]{null, "wrong"}) {
            try (McpSyncClient anonymous = http(token)) {
                assertThrows(RuntimeException.class, anonymous::initialize, "token " + token);
            }
        }
        HttpRequest post = HttpRequest.newBuilder(URI.create(base + "/mcp")).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"))
                .build();
        HttpResponse<String> r = WebFixture.HTTP.send(post, HttpResponse.BodyHandlers.ofString());
        assertEquals(401, r.statusCode());
        assertTrue(r.body().contains("access token"), r.body());
    }

    /** Bytes of each answer with its default page: printed for the record, and bounded so a default stays small. */
    @Test
    void answersFitAModelsContext() throws Exception {
        List<McpAnswerSizes.Answer> answers = McpAnswerSizes.measure(client);
        List<String> tools = new ArrayList<>();
        for (McpAnswerSizes.Answer a : answers) {
            System.out.printf("mcp answer %-26s %,8d bytes %s%n", a.call(), a.bytes(), a.arguments());
            assertFalse(a.error(), a.call() + ": " + a.text());
            assertTrue(a.bytes() < 48_000, a.call() + " answers " + a.bytes() + " bytes");
            tools.add(a.call());
        }
        assertTrue(tools.containsAll(List.of("get_sql_execution", "job_history", "compare_runs", "tune_job")), tools
                .toString());
    }

    /** {@code sparkscope mcp} in a process of its own, spoken to over its stdin and stdout. */
    @Test
    void stdioCommand() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ServerParameters p = ServerParameters.builder(java).args("-cp", System.getProperty("java.class.path"),
                "io.sparkscope.server.cli.Main", "mcp", "--db", TestDb.url(ds.getDatabaseName())).build();
        StdioClientTransport transport = new StdioClientTransport(p, new JacksonMcpJsonMapper(new ObjectMapper()));
        List<String> stderr = new java.util.concurrent.CopyOnWriteArrayList<>();
        transport.setStdErrorHandler(stderr::add);
        try (McpSyncClient stdio = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60)).build()) {
            stdio.initialize();
            McpSchema.CallToolResult r = stdio.callTool(new McpSchema.CallToolRequest("get_application",
                    Map.of("appId", "app-etl-4")));
            assertFalse(Boolean.TRUE.equals(r.isError()), McpAnswerSizes.text(r));
            assertEquals("etl-daily", JSON.readTree(McpAnswerSizes.text(r)).path("app").path("name").asText());
            McpSchema.CallToolResult bad = stdio.callTool(new McpSchema.CallToolRequest("get_application",
                    Map.of("appId", "nope")));
            assertEquals("appId: no application nope in the database", McpAnswerSizes.text(bad));
        }
        assertTrue(stderr.stream().anyMatch(l -> l.contains("sparkscope mcp: serving on stdio")), stderr.toString());
    }
}
