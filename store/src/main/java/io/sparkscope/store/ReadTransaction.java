package io.sparkscope.store;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Runs a page's or a reader's statements in one read-only REPEATABLE READ transaction, so a writer storing the same
 * application at the same moment never shows them half a snapshot (new stages beside old findings).
 */
public final class ReadTransaction {
    private ReadTransaction() {
    }

    /** The statements to run, on the transaction's connection. */
    public interface Body<T> {
        T run(Connection c) throws SQLException;
    }

    public static <T> T run(DataSource dataSource, Body<T> body) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            try {
                // The level set for this transaction only rather than with setTransactionIsolation: that costs a
                // statement to set and another when the pool resets the connection.
                try (Statement st = c.createStatement()) {
                    st.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
                }
                T r = body.run(c);
                c.commit();
                return r;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true); // the pool resets read-only; autocommit back for the connection's next user
            }
        }
    }
}
