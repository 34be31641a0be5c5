package io.sparkscope.server.web;

import io.sparkscope.server.cli.CliRun;
import io.sparkscope.store.SecretSamples;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An event log with a credential in every text field Spark logs goes through {@code analyze}, {@code import} and
 * the web server: no credential reaches the printed report, the JSON, a database row, a page or the API, while the
 * text around each credential does (the fields were stored and shown, only the secret part replaced).
 */
class SecretsNeverShownTest {
    @TempDir
    static Path dir;
    private static Path log;
    private static String database;
    private static OwnServer server;
    private static String base;
    private static final String SECOND = SecretSamples.APP_ID + "-again";

    @BeforeAll
    static void importTheLogAndServeIt() throws Exception {
        log = SecretSamples.writeEventLog(dir);
        SecretSamples.writeEventLog(dir, SECOND);
        database = TestDb.newDatabaseName();
        CliRun run = CliRun.of("import", dir.toString(), "--db", TestDb.url(database));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(SecretSamples.leaks(run.out() + run.err()).isEmpty(), run.err());
        server = OwnServer.over(TestDb.dataSource(database), System::currentTimeMillis);
        base = server.base();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void analyzeTextAndJsonShowNoCredential() {
        CliRun text = CliRun.of("analyze", log.toString());
        assertEquals(0, text.exitCode(), text.err());
        assertEquals(List.of(), SecretSamples.leaks(text.out() + text.err()), "analyze");
        assertTrue(text.out().contains(SecretSamples.APP_NAME), text.out());

        CliRun json = CliRun.of("analyze", "--json", log.toString());
        assertEquals(0, json.exitCode(), json.err());
        assertEquals(List.of(), SecretSamples.leaks(json.out() + json.err()), "analyze --json");
        for (String kept : SecretSamples.KEPT) {
            assertTrue(json.out().contains(kept), kept + " in " + json.out());
        }
    }

    @Test
    void noDatabaseRowHoldsACredential() throws Exception {
        DataSource ds = TestDb.dataSource(database);
        String stored = SecretSamples.everyStoredText(ds);
        assertEquals(List.of(), SecretSamples.leaks(stored));
        for (String kept : SecretSamples.KEPT) {
            assertTrue(stored.contains(kept), kept + " stored");
        }
        assertTrue(stored.contains(SecretSamples.KEPT_TASK_ERROR), "the failed task's error is stored, without its token");
    }

    @Test
    void noPageOrApiAnswerHoldsACredential() {
        String app = "/apps/" + SecretSamples.APP_ID;
        String api = "/api/v1/apps/" + SecretSamples.APP_ID;
        String name = SecretSamples.APP_NAME.replace(" ", "%20");
        List<String> paths = List.of("/", "/apps", "/apps?q=nightly", app, app + "/what-if",
                app + "/stages/0/0/timeline", "/compare?apps=" + SecretSamples.APP_ID + "," + SECOND, "/history?name=" + name,
                "/api/v1/apps", api, api + "/stages", api + "/findings", api + "/what-if",
                api + "/stages/0/0/timeline", "/api/v1/compare?apps=" + SecretSamples.APP_ID + "," + SECOND,
                "/api/v1/history?name=" + name);
        List<String> leaks = new ArrayList<>();
        StringBuilder all = new StringBuilder();
        for (String path : paths) {
            WebFixture.Response r = WebFixture.getAt(base, path);
            assertEquals(200, r.status(), path + ": " + r.body());
            SecretSamples.leaks(r.body()).forEach(l -> leaks.add(path + " → " + l));
            all.append(r.body());
        }
        assertEquals(List.of(), leaks);
        String page = WebFixture.getAt(base, app).body();
        assertTrue(page.contains("redacted"), "the application page shows the redacted configuration");
        assertTrue(all.toString().contains(SecretSamples.KEPT_STAGE_FAILURE),
                "the stage's failure reason is shown, without its secret");
    }
}
