package io.sparkscope.listener;

import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The database drops the listener's connections between two writes (it went away, or was restarted): the next write
 * fails as an outage, and the connection pool logs nothing of its own, no stack trace per dropped connection (a
 * driver exiting with its database away printed one), and the write after it goes in on new connections.
 */
class DroppedConnectionsTest {

    @Test
    void droppedConnectionsAreAnOutageWithoutThePoolsStackTraces() throws Exception {
        Recorder r = new Recorder();
        EventLogReader.read(EventLogReader.discover(ExampleEventLogs.DIR).get(0), r::onEvent, p -> { });
        AppSnapshot app = r.snapshot();
        String db = TestDb.newDatabaseName();
        DataSource admin = TestDb.dataSource(db);
        ListenerConfig cfg = ListenerConfig.from(Map.of("spark.sparkscope.jdbc.url", TestDb.url(db)), w -> { });
        CapturedLog captured = CapturedLog.of("com.zaxxer.hikari");
        JdbcSnapshotStore store = new JdbcSnapshotStore(cfg);
        try {
            store.write(app, List.of());
            // Right after the write, inside the pool's half second without a validity check on borrowing: the next
            // write gets a connection the database has dropped, as when it goes away in the middle of a run.
            terminateOthers(admin, db);
            assertThrows(java.sql.SQLTransientConnectionException.class, () -> store.write(app, List.of()));
            store.write(app, List.of()); // new connections: written
        } finally {
            store.close();
            captured.close();
        }
        assertEquals(List.of(), captured.lines, "the pool logged nothing of its own");
    }

    /** Ends every session of the database but the caller's, as a database going away does. */
    private static void terminateOthers(DataSource admin, String db) throws Exception {
        try (Connection c = admin.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()")) {
            ps.setString(1, db);
            ps.executeQuery().close();
        }
    }
}
