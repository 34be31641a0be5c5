package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.server.cli.TuneLogs;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /api/v1/tune}, {@code /tune} and the history page's link to them, over three imported runs of a recurring
 * job ({@link TuneLogs}) on a real PostgreSQL.
 */
class TuneWebTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    static Path dir;
    private static OwnServer server;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        server = OwnServer.over(TestDb.dataSource(TuneLogs.importedJob(dir, 3)));
        base = server.base();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theApiAnswersTheMergedSettingsWithWhyAndThePrediction() throws Exception {
        var r = WebFixture.getAt(base, "/api/v1/tune?job=" + TuneLogs.JOB);
        assertEquals(200, r.status(), r.body());
        assertFalse(r.body().contains(TuneLogs.SECRET), r.body());
        JsonNode j = JSON.readTree(r.body());
        assertEquals(TuneLogs.JOB, j.get("job").asText());
        assertEquals("app-tune-3", j.get("run").get("appId").asText(), "the newest run");
        assertEquals("/apps/app-tune-3", j.get("run").get("link").asText());
        assertEquals("YARN, JVM", j.get("platform").asText());

        List<String> keys = new ArrayList<>();
        j.get("settings").forEach(s -> keys.add(s.get("key").asText()));
        assertEquals(List.of("spark.executor.cores", "spark.executor.memory"), keys);
        JsonNode cores = j.get("settings").get(0);
        assertEquals("8", cores.get("currentValue").asText());
        assertEquals("SET", cores.get("currentSource").asText());
        assertEquals("5", cores.get("value").asText());
        assertEquals("CoreNumber", cores.get("because").get(0).get("heuristic").asText());
        assertTrue(cores.get("because").get(0).get("reason").asText().contains("8 concurrent tasks"), cores.toString());
        assertEquals("", cores.get("resolution").asText());

        JsonNode w = j.get("whatIf");
        assertEquals(8, w.get("today").get("coresPerExecutor").asInt());
        assertEquals(5, w.get("tuned").get("coresPerExecutor").asInt());
        assertEquals(2, w.get("tuned").get("executors").asInt());
        // 16 two-second tasks: one wave on 16 slots, two on 10
        assertTrue(w.get("tuned").get("wallMs").asLong() > w.get("today").get("wallMs").asLong() + 1_500, w.toString());
        assertTrue(w.get("timeChange").asDouble() > 0.3, w.toString());
        assertEquals("core-hours", w.get("costUnit").asText());
        assertEquals("[\"spark.executor.cores\"]", w.get("modelled").toString());
        assertEquals("[\"spark.executor.memory\"]", w.get("costOnly").toString());
        assertEquals(0, w.get("notModelled").size());

        assertEquals("[\"--conf spark.executor.cores=5\",\"--conf spark.executor.memory=5g\"]",
                j.get("conf").toString());
        assertEquals(Map.of("spark.executor.cores", "5", "spark.executor.memory", "5g"),
                load(j.get("properties").asText()));
    }

    @Test
    void tunePageIsThePropertiesFile() throws Exception {
        var r = WebFixture.getAt(base, "/tune?job=" + TuneLogs.JOB);
        assertEquals(200, r.status(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"), r.headers().toString());
        assertTrue(r.headers().firstValue("Content-Disposition").orElse("")
                .contains("filename=\"nightly-orders.properties\""), r.headers().toString());
        assertEquals(Map.of("spark.executor.cores", "5", "spark.executor.memory", "5g"), load(r.body()));
        assertTrue(r.body().contains("# spark.executor.memory: now 8g; use 5g"), r.body());
        assertFalse(r.body().contains(TuneLogs.SECRET), r.body());
    }

    @Test
    void theHistoryPageLinksToTheSettings() {
        var r = WebFixture.getAt(base, "/history?job=" + TuneLogs.JOB);
        assertEquals(200, r.status(), r.body());
        assertTrue(r.body().contains("id=\"tune-link\" href=\"/tune?job=nightly-orders\""), r.body());
        assertTrue(r.body().contains("id=\"tune-json\" href=\"/api/v1/tune?job=nightly-orders\""), r.body());
    }

    @Test
    void anUnknownJobIsA404NamingTheKey() throws Exception {
        var api = WebFixture.getAt(base, "/api/v1/tune?job=no-such-job");
        assertEquals(404, api.status(), api.body());
        JsonNode e = JSON.readTree(api.body());
        assertEquals(404, e.get("status").asInt(), api.body());
        assertTrue(e.get("error").asText().startsWith("no stored run of job 'no-such-job'"), api.body());

        var page = WebFixture.getAt(base, "/tune?job=no-such-job");
        assertEquals(404, page.status());
        assertTrue(page.body().contains("no stored run of job &#39;no-such-job&#39;")
                || page.body().contains("no stored run of job 'no-such-job'"), page.body());

        var missing = WebFixture.getAt(base, "/api/v1/tune");
        assertEquals(400, missing.status(), missing.body());
    }

    private static Map<String, String> load(String text) throws Exception {
        Properties p = new Properties();
        p.load(new StringReader(text));
        Map<String, String> out = new TreeMap<>();
        for (String k : p.stringPropertyNames()) {
            out.put(k, p.getProperty(k).trim());
        }
        return out;
    }
}
