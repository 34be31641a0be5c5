package io.sparkscope.store.query;

import io.sparkscope.store.EfficiencyStoreTest;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The jobs that ran under one name, found by stepping through the name's job keys in the index: every key once,
 * the most recently run job first (ties by key), runs of other names and runs of no job left out.
 */
class JobKeysOfNameTest {
    @Test
    void everyJobOfTheNameOnceTheMostRecentlyRunFirst() throws Exception {
        DataSource ds = TestDb.migrated();
        SnapshotWriter writer = new SnapshotWriter();
        // run: app id, name, job key (null: an interactive run), start
        Object[][] runs = {
                {"app-k1", "etl", "job-b", 1_000L}, {"app-k2", "etl", "job-b", 5_000L},
                {"app-k3", "etl", "job-a", 4_000L}, {"app-k4", "etl", "job-c", 9_000L},
                {"app-k5", "etl", null, 20_000L}, {"app-k6", "etl", "job-d", 5_000L},
                {"app-k7", "other", "job-z", 30_000L}, {"app-k8", "etl", "job-a", 2_000L}};
        for (Object[] r : runs) {
            writer.write(ds, EfficiencyStoreTest.withWorker((String) r[0], 1, 1_000), List.of());
        }
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "UPDATE application SET name = ?, job_key = ?, start_time = ? WHERE app_id = ?")) {
            for (Object[] r : runs) {
                ps.setString(1, (String) r[1]);
                ps.setString(2, (String) r[2]);
                ps.setLong(3, (Long) r[3]);
                ps.setString(4, (String) r[0]);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        HistoryQuery history = new HistoryQuery(ds);
        // newest run: job-c 9 s, then job-b and job-d at 5 s (by key), then job-a 4 s
        assertEquals(List.of("job-c", "job-b", "job-d", "job-a"), history.jobKeysOfName("etl"));
        assertEquals(List.of("job-z"), history.jobKeysOfName("other"));
        assertEquals(List.of(), history.jobKeysOfName("nobody"));
        assertEquals(1, history.runsWithoutJob("etl"));
    }
}
