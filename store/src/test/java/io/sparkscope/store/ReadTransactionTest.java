package io.sparkscope.store;

import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one read-only snapshot transaction every page and the snapshot reader run their reads in. */
class ReadTransactionTest {
    private static String show(Connection c, String setting) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void readsSeeOneSnapshotAndCannotWrite() throws SQLException {
        PGSimpleDataSource ds = TestDb.newDatabase();
        List<String> seen = ReadTransaction.run(ds, c -> List.of(show(c, "transaction_isolation"),
                show(c, "transaction_read_only"), String.valueOf(c.getAutoCommit())));
        assertEquals(List.of("repeatable read", "on", "false"), seen);
        SQLException write = assertThrows(SQLException.class, () -> ReadTransaction.run(ds, c -> {
            try (Statement st = c.createStatement()) {
                return st.executeUpdate("CREATE TABLE not_allowed (x int)");
            }
        }));
        assertTrue(write.getMessage().contains("read-only transaction"), write.getMessage());
    }
}
