package io.sparkscope.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code serve --cost-core-hour --cost-gb-hour --currency}: checked like every option, and shown on the pages. */
class ServeCostTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void aBadPriceOrCurrencyIsAUsageErrorNamingTheOption() {
        String nowhere = "jdbc:postgresql://127.0.0.1:1/nowhere";
        for (String[] bad : List.of(new String[]{"--cost-core-hour", "cheap"}, new String[]{"--cost-gb-hour", "-1"},
                new String[]{"--currency", "<b>"})) {
            CliRun r = CliRun.of("serve", "--db", nowhere, "--port", "0", bad[0], bad[1]);
            assertEquals(2, r.exitCode(), r.err());
            assertTrue(r.err().contains(bad[0] + " must be"), r.err());
            assertTrue(r.err().contains(bad[1]), "names the value: " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertFalse(r.err().contains("\tat "), "no stack trace");
        }
    }

    @Test
    void thePricesOfTheCommandLineAppearOnTheApplicationPage() throws Exception {
        String db = TestDb.newDatabaseName();
        assertEquals(0, CliRun.of("import", ExampleEventLogs.DIR.toString(), "--db", TestDb.url(db)).exitCode());
        String appId;
        try (ServeCommand.Running plain = serve(db)) {
            String base = "http://127.0.0.1:" + plain.port();
            appId = new ObjectMapper().readTree(get(base + "/api/v1/apps")).get("apps").get(0).get("appId").asText();
            String page = get(base + "/apps/" + appId);
            assertTrue(page.contains("id=\"efficiency-table\""), "figures without prices");
            assertTrue(page.contains("id=\"cost-how-to\""), "and how to set prices");
        }
        try (ServeCommand.Running priced = serve(db, "--cost-core-hour", "0.05", "--cost-gb-hour", "0.006",
                "--currency", "EUR")) {
            String base = "http://127.0.0.1:" + priced.port();
            String page = get(base + "/apps/" + appId);
            assertTrue(page.contains("id=\"cost-formula\""), "the cost with its formula");
            assertTrue(page.contains("0.05 EUR + "), "the price per core-hour in the formula");
            assertFalse(page.contains("id=\"cost-how-to\""));
            JsonNode cost = new ObjectMapper().readTree(get(base + "/api/v1/apps/" + appId)).get("cost");
            assertEquals(0.05, cost.get("perCoreHour").asDouble());
            assertEquals("EUR", cost.get("currency").asText());
        }
    }

    /** {@code serve} in this JVM on a free port over a test database, with these options added. */
    static ServeCommand.Running serve(String db, String... extra) {
        List<String> args = new ArrayList<>(List.of("--db", TestDb.url(db), "--port", "0"));
        args.addAll(List.of(extra));
        ServeCommand cmd = new ServeCommand();
        new CommandLine(cmd).parseArgs(args.toArray(String[]::new));
        return cmd.start();
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), url + ": " + r.body());
        return r.body();
    }
}
