package io.sparkscope.store;

import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link CopyBinary} stores exactly what binding the same values as statement parameters ({@link Column#bind})
 * stores, for every column type and the values at their edges: NULLs, empty arrays and arrays with NULLs, NaN and
 * infinities, the extreme integers, NUL and non-BMP characters in text.
 */
class CopyBinaryTest {
    private static final List<Column<Object>> COLS = List.of(
            new Column<>("t", Column.Type.TEXT, x -> null),
            new Column<>("i", Column.Type.INT, x -> null),
            new Column<>("b", Column.Type.BIGINT, x -> null),
            new Column<>("f", Column.Type.FLOAT8, x -> null),
            new Column<>("o", Column.Type.BOOL, x -> null),
            new Column<>("j", Column.Type.JSONB, x -> null),
            new Column<>("ia", Column.Type.INT_ARRAY, x -> null),
            new Column<>("ta", Column.Type.TEXT_ARRAY, x -> null),
            new Column<>("fa", Column.Type.FLOAT8_ARRAY, x -> null));

    private static final List<Object[]> ROWS = List.of(
            new Object[]{"plain", 1, 2L, 3.5, true, "{\"a\": [1, 2.5, \"x\"]}", new Integer[]{1, 2, 3},
                    new String[]{"a", "b"}, new Double[]{0.1, 1e300, -2.0}},
            new Object[]{null, null, null, null, null, null, null, null, null},
            new Object[]{"", Integer.MIN_VALUE, Long.MIN_VALUE, Double.NaN, false, "[]", new Integer[0],
                    new String[0], new Double[0]},
            new Object[]{"a\u0000b \uD83D\uDE80 Grüße\t\n\\", Integer.MAX_VALUE, Long.MAX_VALUE,
                    Double.POSITIVE_INFINITY, true, "{\"k\": \"日本語 \\u0041\"}", new Integer[]{null, -7},
                    new String[]{null, "x\u0000y", "\"q\"", ""},
                    new Double[]{Double.NEGATIVE_INFINITY, null, -0.0, Double.MIN_VALUE, Double.NaN}});

    @Test
    void binaryCopyStoresWhatBoundParametersStore() throws Exception {
        DataSource ds = TestDb.migrated();
        StringBuilder ddl = new StringBuilder("CREATE TABLE %s (n integer");
        for (Column<Object> c : COLS) {
            ddl.append(", ").append(c.name()).append(' ').append(c.type().sqlType());
        }
        ddl.append(')');
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute(String.format(ddl.toString(), "copied"));
            st.execute(String.format(ddl.toString(), "bound"));

            CopyBinary out = new CopyBinary(16);
            out.header();
            for (int r = 0; r < ROWS.size(); r++) {
                // the row number goes first, as the writer's app_pk does (a bigint here: the prefix is one)
                out.row((long) r, COLS, ROWS.get(r));
            }
            out.trailer();
            st.execute("ALTER TABLE copied ALTER COLUMN n TYPE bigint");
            CopyIn in = c.unwrap(PGConnection.class).getCopyAPI()
                    .copyIn("COPY copied (n, t, i, b, f, o, j, ia, ta, fa) FROM STDIN (FORMAT binary)");
            in.writeToCopy(out.bytes(), 0, out.length());
            assertEquals(ROWS.size(), in.endCopy());

            try (PreparedStatement ps = c.prepareStatement("INSERT INTO bound VALUES (?, ?, ?, ?, ?, ?,"
                    + " CAST(? AS jsonb), ?, ?, ?)")) {
                for (int r = 0; r < ROWS.size(); r++) {
                    ps.setInt(1, r);
                    for (int k = 0; k < COLS.size(); k++) {
                        COLS.get(k).bind(c, ps, k + 2, ROWS.get(r)[k]);
                    }
                    ps.executeUpdate();
                }
            }
            assertEquals(rows(st, "bound"), rows(st, "copied"));
        }
    }

    private static List<String> rows(Statement st, String table) throws Exception {
        List<String> out = new ArrayList<>();
        // every column as PostgreSQL prints it, plus each float's sign (-0 prints as -0) and the arrays' bounds
        try (ResultSet rs = st.executeQuery("SELECT n::text, t, i::text, b::text, f::text, o::text, j::text,"
                + " ia::text, array_lower(ia, 1)::text, ta::text, fa::text, array_lower(fa, 1)::text FROM " + table
                + " ORDER BY n")) {
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= 12; i++) {
                    sb.append(rs.getString(i)).append(" | ");
                }
                out.add(sb.toString());
            }
        }
        assertEquals(ROWS.size(), out.size());
        return out;
    }
}
