package io.sparkscope.archive;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Row count and checksum of every table of the Sparkscope schema, so two databases can be compared whole. Rows are
 * compared by what they hold: the surrogate {@code app_pk} is replaced by the application's id and attempt (two
 * databases number applications in the order they arrived), and wall-clock columns (when a row was written) are
 * left out. The bookkeeping of who read which log ({@code log_watch}) and the migration history are not data.
 */
final class TableChecksums {
    // The summary tables are left out too: their rows are spread over shards by app_pk, and the two ways in give the
    // same applications different app_pks, so the same sums land in other rows. Their sums are checked against the
    // base tables after imports, rewrites and prunes by the store's SummariesTest.
    private static final List<String> NOT_DATA = List.of("flyway_schema_history", "sparkscope_schema_history", "log_watch",
            "app_totals", "app_health_hour", "finding_summary");

    private TableChecksums() {
    }

    static Map<String, String> of(DataSource ds) throws SQLException {
        Map<String, String> out = new TreeMap<>();
        try (Connection c = ds.getConnection()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getTables(null, "public", "%", new String[]{"TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            for (String table : tables) {
                if (NOT_DATA.contains(table)) {
                    continue;
                }
                List<String> dropped = new ArrayList<>(List.of("app_pk"));
                boolean hasApp = false;
                try (PreparedStatement ps = c.prepareStatement("SELECT column_name, data_type FROM"
                        + " information_schema.columns WHERE table_schema = 'public' AND table_name = ?")) {
                    ps.setString(1, table);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            if (rs.getString(1).equals("app_pk")) {
                                hasApp = true;
                            }
                            if (rs.getString(2).startsWith("timestamp")) {
                                dropped.add(rs.getString(1));
                            }
                        }
                    }
                }
                StringBuilder minus = new StringBuilder();
                for (String col : dropped) {
                    minus.append(" - '").append(col).append('\'');
                }
                // table and column names come from the catalog, not from input
                String row = "(to_jsonb(t)" + minus + ")::text";
                String sql = table.equals("application")
                        ? "SELECT count(*), md5(coalesce(string_agg(r, E'\\n' ORDER BY r), '')) FROM (SELECT " + row
                        + " AS r FROM application t) x"
                        : hasApp ? "SELECT count(*), md5(coalesce(string_agg(r, E'\\n' ORDER BY r), '')) FROM (SELECT"
                        + " a.app_id || '/' || a.attempt_id || ' ' || " + row + " AS r FROM " + table
                        + " t JOIN application a USING (app_pk)) x"
                        : "SELECT count(*), md5(coalesce(string_agg(r, E'\\n' ORDER BY r), '')) FROM (SELECT " + row
                        + " AS r FROM " + table + " t) x";
                try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    out.put(table, rs.getLong(1) + " rows, md5 " + rs.getString(2));
                }
            }
        }
        return out;
    }
}
