package io.sparkscope.server.web;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.EfficiencyStoreTest;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TestDb;

import javax.sql.DataSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

/**
 * One database with three runs of one job that waste differently and one run stored before the efficiency figures
 * existed, served twice: by a server without prices and by one started with the operator's prices.
 */
final class EfficiencyFixture {
    static final long NOW = SnapshotBuilder.RICH_START + 3_600_000L;
    static final Prices PRICES = new Prices(0.05, 0.006, "EUR");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static DataSource ds;
    private static OwnServer unpriced;
    private static OwnServer priced;

    private EfficiencyFixture() {
    }

    static synchronized DataSource data() {
        if (ds == null) {
            ds = TestDb.migrated();
            SnapshotWriter w = new SnapshotWriter();
            try {
                w.write(ds, EfficiencyStoreTest.withWorker("app-eff-busy", 1, 59_000), List.of());
                w.write(ds, EfficiencyStoreTest.withWorker("app-eff-some", 4, 100_000), List.of());
                w.write(ds, EfficiencyStoreTest.withWorker("app-eff-most", 16, 50_000), List.of());
                w.write(ds, EfficiencyStoreTest.withWorker("app-eff-old", 8, 50_000), List.of());
                try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                    // what V17 leaves on a row stored before it
                    st.executeUpdate("UPDATE application SET core_hours_allocated = NULL, core_hours_used = NULL,"
                            + " core_hours_wasted = NULL, core_hours_driver_alone = NULL, gb_hours_allocated = NULL,"
                            + " gb_hours_peak_used = NULL, gb_hours_wasted = NULL, gb_hours_driver_alone = NULL,"
                            + " driver_alone_ms = NULL WHERE app_id = 'app-eff-old'");
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        return ds;
    }

    static AppSnapshot snapshot(String appId) {
        return switch (appId) {
            case "app-eff-busy" -> EfficiencyStoreTest.withWorker(appId, 1, 59_000);
            case "app-eff-some" -> EfficiencyStoreTest.withWorker(appId, 4, 100_000);
            default -> EfficiencyStoreTest.withWorker(appId, 16, 50_000);
        };
    }

    static synchronized String unpriced() {
        if (unpriced == null) {
            unpriced = start(Prices.NONE);
        }
        return unpriced.base();
    }

    static synchronized String priced() {
        if (priced == null) {
            priced = start(PRICES);
        }
        return priced.base();
    }

    static OwnServer start(Prices prices) {
        WebServer server = new WebServer(data(), new WebServer.Options(null, null,
                WebServer.Options.defaultConcurrency(), prices), () -> NOW);
        OwnServer s = new OwnServer(server, "http://127.0.0.1:" + server.start("127.0.0.1", 0));
        Runtime.getRuntime().addShutdownHook(new Thread(s::close));
        return s;
    }

    record Answer(int status, String body) {
    }

    static Answer get(String url) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body());
        } catch (Exception e) {
            throw new IllegalStateException(url, e);
        }
    }
}
