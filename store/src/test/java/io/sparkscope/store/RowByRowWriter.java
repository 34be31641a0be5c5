package io.sparkscope.store;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The naive way to write a snapshot: auto-commit, one statement and one round trip per row, no lock. It produces the
 * same rows as {@link SnapshotWriter#write}, which makes it a second opinion for the round-trip tests and the
 * baseline of the benchmark that justifies batching ({@link WriteBench}). It lives with the tests because nothing
 * in production may write this way.
 */
final class RowByRowWriter {
    private RowByRowWriter() {
    }

    static WriteResult write(DataSource dataSource, AppSnapshot s, List<Finding> findings)
            throws SQLException {
        List<Finding> fs = findings == null ? List.of() : findings;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            Optional<ApplicationRow.Existing> existing = ApplicationRow.find(c, s.appId(), s.attemptId());
            long appPk = ApplicationRow.upsert(c, s, fs,
                    existing.map(e -> OptionalLong.of(e.pk())).orElse(OptionalLong.empty()));
            Map<Table<?>, List<Object[]>> rows = SnapshotRows.of(s, fs);
            if (existing.isPresent()) {
                StaleRows.deleteStale(c, appPk, rows, Set.of(), null, false);
            }
            long n = 0;
            for (Map.Entry<Table<?>, List<Object[]>> e : rows.entrySet()) {
                List<? extends Column<?>> cols = e.getKey().columns();
                for (Object[] row : e.getValue()) {
                    try (PreparedStatement ps = c.prepareStatement(e.getKey().upsertSql())) {
                        SnapshotWriter.bindRow(c, ps, appPk, cols, row);
                        ps.executeUpdate();
                    }
                    n++;
                }
            }
            ExecutorCounts.refresh(c, appPk);
            return new WriteResult(appPk, WriteResult.Outcome.WRITTEN, n);
        }
    }
}
