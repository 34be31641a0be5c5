package io.sparkscope.store;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SampleFindings;
import io.sparkscope.core.testing.SnapshotBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A rewrite of exactly what the database holds is reported {@link WriteResult.Outcome#UNCHANGED}, on the batched
 * and on the COPY path; any change to a row, a finding or the set of rows is {@link WriteResult.Outcome#WRITTEN}.
 */
class UnchangedWriteTest {
    static DataSource ds;

    @BeforeAll
    static void database() {
        ds = TestDb.migrated();
    }

    @Test
    void rewritingTheSameSnapshotIsUnchangedOnBothPaths() throws Exception {
        for (SnapshotWriter writer : List.of(new SnapshotWriter(1000, 0), new SnapshotWriter(1000, Integer.MAX_VALUE),
                new SnapshotWriter(1000, 0, false))) {
            String id = "app-unchanged-" + System.identityHashCode(writer);
            AppSnapshot s = SnapshotBuilder.rich(id, null, true);
            assertEquals(WriteResult.Outcome.WRITTEN, writer.write(ds, s, SampleFindings.skewAndGc()).outcome());
            assertEquals(WriteResult.Outcome.UNCHANGED, writer.write(ds, s, SampleFindings.skewAndGc()).outcome());
            assertEquals(WriteResult.Outcome.UNCHANGED, writer.overwrite(ds, s, SampleFindings.skewAndGc()).outcome());

            // one finding fewer: a deleted row and new application aggregates
            List<io.sparkscope.core.heuristics.Finding> fewer = new ArrayList<>(SampleFindings.skewAndGc());
            fewer.remove(fewer.size() - 1);
            assertEquals(WriteResult.Outcome.WRITTEN, writer.write(ds, s, fewer).outcome());
            assertEquals(WriteResult.Outcome.UNCHANGED, writer.write(ds, s, fewer).outcome());
        }
    }

    @Test
    void aChangeMadeBehindTheWritersBackIsRepairedAndReportedWritten() throws Exception {
        SnapshotWriter writer = new SnapshotWriter();
        AppSnapshot s = SnapshotBuilder.rich("app-repaired", null, true);
        writer.write(ds, s, SampleFindings.skewAndGc());
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE executor SET host = 'elsewhere' WHERE app_pk = (SELECT app_pk FROM application"
                    + " WHERE app_id = 'app-repaired') AND executor_id = '1'");
        }
        assertEquals(WriteResult.Outcome.WRITTEN, writer.write(ds, s, SampleFindings.skewAndGc()).outcome());
        assertEquals(WriteResult.Outcome.UNCHANGED, writer.write(ds, s, SampleFindings.skewAndGc()).outcome());
    }

    /**
     * PostgreSQL folds a session's row counts into its statistics only between transactions, at most once a second:
     * an unchanged rewrite right after a changing write on the same connection must still be told apart.
     */
    @Test
    void anUnchangedWriteRightAfterAChangingOneOnTheSameConnectionIsUnchanged() throws Exception {
        SnapshotWriter writer = new SnapshotWriter();
        AppSnapshot a = SnapshotBuilder.rich("app-same-conn-a", null, true);
        AppSnapshot b = SnapshotBuilder.rich("app-same-conn-b", null, true);
        List<io.sparkscope.core.heuristics.Finding> fewer = SampleFindings.skewAndGc().subList(0, 1);
        try (Connection c = ds.getConnection()) {
            writer.write(c, a, SampleFindings.skewAndGc());
            writer.write(c, b, SampleFindings.skewAndGc());
            for (int i = 0; i < 3; i++) {
                assertEquals(WriteResult.Outcome.WRITTEN, writer.write(c, a,
                        i % 2 == 0 ? fewer : SampleFindings.skewAndGc())
                        .outcome());
                assertEquals(WriteResult.Outcome.UNCHANGED, writer.write(c, b, SampleFindings.skewAndGc()).outcome());
            }
        }
    }
}
