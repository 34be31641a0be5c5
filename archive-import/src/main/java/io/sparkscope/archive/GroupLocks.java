package io.sparkscope.archive;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * One application name at a time across all tasks, as {@code import} stores them one at a time: a PostgreSQL
 * advisory lock per group of runs (the job key the Regression finding compares by), held on a connection of the
 * task's own while the run is stored. Without it two tasks storing two runs of one job at the same moment could
 * each miss the other: the later run compared before the earlier one committed, the earlier one looking for the
 * runs after it before the later one committed, and the later run's Regression finding would differ from what
 * {@code import} stores.
 */
final class GroupLocks implements AutoCloseable {
    /** The first half of the lock's key, so that Sparkscope's locks meet no one else's: "SPSC". */
    private static final int NAMESPACE = 0x53505343;

    private final DataSource dataSource;
    private Connection connection;

    GroupLocks(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Waits until no other task holds this group (hash collisions only make two groups wait for each other). */
    void lock(String group) throws SQLException {
        if (connection == null) {
            connection = dataSource.getConnection();
            connection.setAutoCommit(true);
        }
        call("SELECT pg_advisory_lock(?, ?)", group);
    }

    void unlock(String group) throws SQLException {
        call("SELECT pg_advisory_unlock(?, ?)", group);
    }

    private void call(String sql, String group) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setInt(1, NAMESPACE);
            ps.setInt(2, group.hashCode());
            ps.execute();
        }
    }

    /** Gives the connection back to the task's pool, which the task closes, and any lock left with it. */
    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // a connection that is gone holds no locks
            }
            connection = null;
        }
    }
}
