package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.report.TextReport;
import io.sparkscope.server.cli.CliRun;
import io.sparkscope.server.web.HostileShapes.Field;
import io.sparkscope.server.web.HostileShapes.Shape;
import io.sparkscope.store.SecretSamples;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every shape of {@link HostileShapes}, written into an event log, goes the whole way: {@code import} into
 * PostgreSQL (every text column of every table is searched), the web pages and the API over that database,
 * {@code analyze} as text and as JSON, and the report the listener logs in the driver. Its credential shows up in
 * none of them; the text around it (and the near misses whole) is stored and printed.
 */
class SecretShapesEverywhereTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ENTITY = Pattern.compile("&#(x?)([0-9A-Fa-f]+);");

    @TempDir
    static Path dir;
    private static OwnServer server;
    /** What each way out gave, by name: "database", "analyze --json", a page's path, … */
    private static final Map<String, String> OUTPUTS = new LinkedHashMap<>();
    private static String stored;
    private static JsonNode analyzeJson;
    private static String analyzeJsonText;

    @BeforeAll
    static void sendTheLogEverywhere() throws Exception {
        Path log = HostileShapes.writeEventLog(dir);
        String database = TestDb.newDatabaseName();
        CliRun imported = CliRun.of("import", dir.toString(), "--db", TestDb.url(database));
        assertEquals(0, imported.exitCode(), imported.err());
        OUTPUTS.put("import's output", imported.out() + imported.err());
        stored = SecretSamples.everyStoredText(TestDb.dataSource(database));
        OUTPUTS.put("database", stored);

        server = OwnServer.over(TestDb.dataSource(database), System::currentTimeMillis);
        for (String path : paths()) {
            WebFixture.Response r = WebFixture.getAt(server.base(), path);
            assertEquals(200, r.status(), path + ": " + r.body());
            OUTPUTS.put(path, unescaped(r.body()));
        }

        CliRun text = CliRun.of("analyze", log.toString());
        assertEquals(0, text.exitCode(), text.err());
        OUTPUTS.put("analyze", text.out() + text.err());
        CliRun json = CliRun.of("analyze", "--json", "--tasks", log.toString());
        assertEquals(0, json.exitCode(), json.err());
        analyzeJsonText = json.out();
        analyzeJson = JSON.readTree(analyzeJsonText);
        // decoded, so a secret is found whatever JSON escaped in it
        OUTPUTS.put("analyze --json", json.out() + json.err() + "\n" + analyzeJson.toString());

        EventLogAnalysis.Result result = EventLogAnalysis.analyze(EventLogReader.discover(log).get(0),
                RecorderOptions.DEFAULTS, problem -> OUTPUTS.merge("reader's warnings", problem + "\n", String::concat));
        AppSnapshot s = result.snapshot();
        OUTPUTS.put("driver-log report", TextReport.render(s, Diagnoser.defaults().diagnose(s), 5,
                "http://127.0.0.1:8080/apps/" + s.appId(), Prices.NONE));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Every page and API answer about the application, its jobs, stages, tasks, SQL executions and queries. */
    private static List<String> paths() {
        String app = "/apps/" + HostileShapes.APP_ID;
        String api = "/api/v1/apps/" + HostileShapes.APP_ID;
        List<String> paths = new ArrayList<>(List.of("/", "/apps", "/apps?q=secret", app, app + "/jobs",
                app + "/executors", app + "/stages/0/0/tasks", app + "/stages/0/0/timeline", app + "/sql",
                app + "/what-if", "/history?name=" + HostileShapes.APP_NAME, "/api/v1/apps", "/api/v1/jobs", api,
                api + "/stages", api + "/findings", api + "/jobs", api + "/executors", api + "/allexecutors",
                api + "/stages/0/0/taskList", api + "/stages/0/0/timeline", api + "/sql", api + "/queries",
                api + "/what-if", "/api/v1/history?name=" + HostileShapes.APP_NAME,
                "/api/v1/tune?name=" + HostileShapes.APP_NAME));
        for (int i = 0; i < HostileShapes.sqlExecutions(); i++) {
            paths.add(app + "/sql/" + i);
            paths.add(api + "/sql/" + i);
        }
        for (int j = 0; j < HostileShapes.jobs(); j++) {
            paths.add(api + "/jobs/" + j);
        }
        for (int q = 0; q < HostileShapes.of(Field.STREAMING_ERROR).size(); q++) {
            paths.add(app + "/queries/" + HostileShapes.queryId(q));
            paths.add(api + "/queries/" + HostileShapes.queryId(q));
        }
        return paths;
    }

    /** A page as its reader sees it: character references (non-ASCII characters, quotes) decoded. */
    private static String unescaped(String html) {
        Matcher m = ENTITY.matcher(html);
        StringBuilder sb = new StringBuilder(html.length());
        while (m.find()) {
            int cp = Integer.parseInt(m.group(2), m.group(1).isEmpty() ? 10 : 16);
            m.appendReplacement(sb, Matcher.quoteReplacement(new String(Character.toChars(cp))));
        }
        m.appendTail(sb);
        return sb.toString().replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                .replace("&amp;", "&");
    }

    static List<Shape> shapes() {
        return HostileShapes.ALL;
    }

    @Test
    void theTableHoldsAtLeastFortyShapesInEveryField() {
        assertTrue(HostileShapes.ALL.size() >= 40, "shapes: " + HostileShapes.ALL.size());
        for (Field f : Field.values()) {
            assertTrue(!HostileShapes.of(f).isEmpty(), "no shape in " + f);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void vanishesEverywhereAndItsTextStays(Shape shape) {
        List<String> leaks = new ArrayList<>();
        OUTPUTS.forEach((where, text) -> shape.vanish().stream().filter(text::contains)
                .forEach(v -> leaks.add(where + " shows " + v)));
        assertEquals(List.of(), leaks, shape.name());
        assertTrue(stored.contains(shape.stay()), shape.name() + ": '" + shape.stay() + "' stored");
        if (shape.field().inAnalyzeJson()) {
            assertTrue(analyzeJson.toString().contains(shape.stay()),
                    shape.name() + ": '" + shape.stay() + "' in analyze --json");
        }
    }

    @Test
    void theApplicationKeepsItsNameInTheConfigurationThePagesAndTheReports() {
        assertEquals(HostileShapes.APP_NAME, analyzeJson.get("config").get("spark.app.name").asText());
        assertEquals(HostileShapes.APP_NAME, analyzeJson.get("appName").asText());
        assertTrue(OUTPUTS.get("analyze").contains("Sparkscope report: " + HostileShapes.APP_NAME),
                OUTPUTS.get("analyze"));
        assertTrue(OUTPUTS.get("driver-log report").contains("Sparkscope report: " + HostileShapes.APP_NAME),
                OUTPUTS.get("driver-log report"));
        String page = OUTPUTS.get("/apps/" + HostileShapes.APP_ID);
        assertTrue(page.contains("<title>" + HostileShapes.APP_NAME) || page.contains(">" + HostileShapes.APP_NAME + "<"),
                "the application page names it");
        assertTrue(page.contains("spark.app.name"), "the configuration is on the page");
    }

    @Test
    void theFailedTasksAndQueriesWereShownWithTheirErrorsRedacted() {
        String tasks = OUTPUTS.get("/api/v1/apps/" + HostileShapes.APP_ID + "/stages/0/0/taskList");
        assertTrue(tasks.contains("login failed, password " + HostileShapes.R), tasks);
        String query = OUTPUTS.get("/apps/" + HostileShapes.APP_ID + "/queries/" + HostileShapes.queryId(0));
        assertTrue(query.contains("sink rejected password " + HostileShapes.R), query);
        String plan = OUTPUTS.get("/apps/" + HostileShapes.APP_ID + "/sql/0");
        assertTrue(plan.contains("password%3D" + HostileShapes.R + "%26ssl%3Dtrue"), plan);
    }
}
