package io.sparkscope.listener;

import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.Spool;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write error that is not an outage (here a real PostgreSQL trigger refusing the application's rows, as a
 * constraint or a bad value would): the delivery logs it once, keeps the snapshot in the spool, does not treat the
 * database as away (no outage warning, no backoff) and goes on with the next snapshot, which is stored as soon as
 * the database takes it.
 */
class SnapshotDeliveryRejectionTest {

    @Test
    void aRefusedSnapshotIsLoggedOnceSpooledAndRecordingGoesOn(@TempDir Path spoolDir) throws Exception {
        Recorder r = new Recorder();
        Path shipped = ExampleEventLogs.DIR;
        EventLogReader.read(EventLogReader.discover(shipped).get(0), r::onEvent, p -> { });
        AppSnapshot app = r.snapshot();

        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        io.sparkscope.store.SchemaManager.migrate(ds);
        sql(ds, "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " RAISE EXCEPTION 'refused on purpose'; END $$",
                "CREATE TRIGGER refuse BEFORE INSERT ON application FOR EACH ROW EXECUTE FUNCTION refuse()");

        CapturedLog captured = CapturedLog.of(SnapshotDelivery.class);
        ListenerConfig cfg = ListenerConfig.from(Map.of("spark.sparkscope.jdbc.url", TestDb.url(db)), w -> { });
        Spool spool = new Spool(spoolDir, 1L << 30, io.sparkscope.store.SpoolTarget.of(cfg.jdbcUrl(), cfg.jdbcUser()),
                w -> { });
        SnapshotDelivery d = new SnapshotDelivery(new JdbcSnapshotStore(cfg), spool, s -> List.of(), 60_000);
        d.start();
        try {
            d.submit(app, List.of(), false);
            ListenerOutageTest.waitFor("the refused snapshot spooled", Duration.ofSeconds(30),
                    () -> files(spool) == 1);
            assertTrue(d.awaitIdle(30_000));
            d.submit(app, List.of(), false);
            assertTrue(d.awaitIdle(30_000));
            List<String> refusals = captured.lines.stream().filter(l -> l.contains("refused")).toList();
            assertEquals(1, refusals.size(), "logged once: " + captured.lines);
            assertTrue(refusals.get(0).contains(app.appId()) && refusals.get(0).contains("refused on purpose")
                    && refusals.get(0).contains(spoolDir.toString()), refusals.get(0));
            assertTrue(captured.lines.stream().noneMatch(l -> l.contains("cannot write to the database")),
                    "not taken for an outage: " + captured.lines);
            assertEquals(0, d.writes());

            // The cause gone, the next snapshot goes in and its spooled copy is removed.
            sql(ds, "DROP TRIGGER refuse ON application");
            d.submit(app, List.of(), true);
            assertTrue(d.awaitFinal(30_000));
            ListenerOutageTest.waitFor("the final snapshot stored", Duration.ofSeconds(30),
                    () -> stored(ds, app));
            assertEquals(1, d.writes());
            ListenerOutageTest.waitFor("the spool emptied", Duration.ofSeconds(30), () -> files(spool) == 0);
        } finally {
            d.stop();
            captured.close();
        }
    }

    private static boolean stored(DataSource ds, AppSnapshot app) {
        try {
            return SnapshotReader.read(ds, app.appId(), app.attemptId()).isPresent();
        } catch (Exception e) {
            return false;
        }
    }

    private static int files(Spool spool) {
        try {
            return spool.files().size();
        } catch (Exception e) {
            return -1;
        }
    }

    private static void sql(DataSource ds, String... statements) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }
}
