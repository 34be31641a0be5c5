package io.sparkscope.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.server.web.WebServer;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TestDb;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code sparkscope export}: its rows read back and compared with the JSON API of a server over the same database. */
class ExportCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long HOUR = 3600_000L;
    private static final int APPS = 12;

    private static String db;
    private static WebServer server;
    private static String base;

    @BeforeAll
    static void fill() throws Exception {
        db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        SchemaManager.migrate(ds);
        long now = System.currentTimeMillis();
        for (int i = 0; i < APPS; i++) {
            var spec = SnapshotBuilder.syntheticSpec("app-x" + i, i % 3 == 0 ? "=risky " + i : "report " + i,
                    i % 2 == 0 ? "alice" : "bob", now - (i + 1) * HOUR, 60_000 + i * 1000L);
            if (i == 0) {
                spec = spec.withConf("spark.master", "yarn").withConf("spark.executor.memory", "40g");
            }
            AppSnapshot s = SnapshotBuilder.synthetic(spec);
            new SnapshotWriter().write(ds, s, Diagnoser.withOverrides(Map.of(), "export test").diagnose(s));
        }
        server = new WebServer(ds, new WebServer.Options(null, null), System::currentTimeMillis);
        base = "http://127.0.0.1:" + server.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @Test
    void everyMatchPagedThroughEqualsTheApi() throws Exception {
        CliRun r = CliRun.of("export", "apps", "--db", TestDb.url(db));
        assertEquals(0, r.exitCode(), r.err());
        List<CSVRecord> rows = csv(r.out());
        JsonNode api = api("/api/v1/apps?limit=500").get("apps");
        assertEquals(APPS, api.size());
        assertEquals(api.size(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(api.get(i).get("appId").asText(), rows.get(i).get("appId"));
            String name = api.get(i).get("name").asText();
            assertEquals(name.startsWith("=") ? "'" + name : name, rows.get(i).get("name"));
        }
    }

    @Test
    void filtersAndLimitAsTheSearch() throws Exception {
        CliRun r = CliRun.of("export", "apps", "--db", TestDb.url(db), "--spark-user", "bob", "--limit", "4",
                "--format", "jsonl");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode api = api("/api/v1/apps?user=bob&limit=4").get("apps");
        String[] lines = r.out().split("\n");
        assertEquals(4, lines.length);
        for (int i = 0; i < lines.length; i++) {
            assertEquals(api.get(i), JSON.readTree(lines[i]));
        }
    }

    @Test
    void findingsAndStagesToAFile(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("findings.csv");
        CliRun r = CliRun.of("export", "findings", "app-x0", "--db", TestDb.url(db), "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("", r.out());
        List<CSVRecord> findings = csv(Files.readString(out));
        JsonNode api = api("/api/v1/apps/app-x0/findings");
        assertTrue(api.size() > 0, "the 40 GiB run has findings");
        assertEquals(api.size(), findings.size());
        assertTrue(r.err().contains("wrote " + api.size() + " row(s)"), r.err());
        for (int i = 0; i < api.size(); i++) {
            assertEquals(api.get(i).get("heuristic").asText(), findings.get(i).get("heuristic"));
            assertEquals(api.get(i).get("severity").asText(), findings.get(i).get("severity"));
        }

        r = CliRun.of("export", "stages", "app-x3", "--db", TestDb.url(db));
        assertEquals(0, r.exitCode(), r.err());
        List<CSVRecord> stages = csv(r.out());
        JsonNode apiStages = api("/api/v1/apps/app-x3/stages");
        assertEquals(apiStages.size(), stages.size());
        assertEquals(apiStages.get(0).get("stageId").asText(), stages.get(0).get("stageId"));
    }

    @Test
    void badArgumentsAreOneLineErrors() {
        String url = TestDb.url(db);
        String[][] cases = {
                {"--format: \"xlsx\" is not one of csv, jsonl", "export", "apps", "--format", "xlsx", "--db", url},
                {"<what>: \"jobs\" is not one of apps, findings, stages", "export", "jobs", "--db", url},
                {"<appId>: findings needs the application id", "export", "findings", "--db", url},
                {"app-none", "export", "stages", "app-none", "--db", url},
                {"--limit: 0 is not a positive number of rows", "export", "apps", "--limit", "0", "--db", url}};
        for (String[] c : cases) {
            CliRun r = CliRun.of(java.util.Arrays.copyOfRange(c, 1, c.length));
            assertEquals(2, r.exitCode(), String.join(" ", c));
            assertTrue(r.err().contains(c[0]), r.err());
            assertFalse(r.err().contains("\tat "), "no stack trace");
        }
    }

    private static List<CSVRecord> csv(String text) throws Exception {
        try (CSVParser p = CSVParser.parse(new StringReader(text),
                CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get())) {
            return p.getRecords();
        }
    }

    private static JsonNode api(String path) throws Exception {
        return JSON.readTree(ServeMetricsTest.get(base + path, null).body());
    }
}
