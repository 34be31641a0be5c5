package io.sparkscope.store;

import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The columns the writer declares ({@link Tables}, {@link ApplicationRow#TABLE}) against the schema the migrations
 * build, read from {@code information_schema}: a column declared but missing from every migration, or created with
 * another type, fails here rather than on the first write of a user's application.
 */
class ColumnSchemaTest {
    /** Columns the database fills itself (identity, trigger, default, generated), which no writer names. */
    private static final Map<String, Set<String>> FILLED_BY_THE_DATABASE = Map.of(
            "application", Set.of("app_pk", "updated_at", "completed_at", "name_lower"));

    static List<Table<?>> declared() {
        List<Table<?>> all = new ArrayList<>(Tables.ALL);
        all.add(ApplicationRow.TABLE);
        return all;
    }

    /** The PostgreSQL type name information_schema reports ({@code udt_name}) for each declared type. */
    static String udtName(Column.Type type) {
        return switch (type) {
            case TEXT -> "text";
            case INT -> "int4";
            case BIGINT -> "int8";
            case FLOAT8 -> "float8";
            case BOOL -> "bool";
            case JSONB -> "jsonb";
            case INT_ARRAY -> "_int4";
            case BIGINT_ARRAY -> "_int8";
            case TEXT_ARRAY -> "_text";
            case FLOAT8_ARRAY -> "_float8";
        };
    }

    /** table → column → udt_name of the schema the data source's connections see. */
    static Map<String, Map<String, String>> schema(DataSource ds) throws SQLException {
        Map<String, Map<String, String>> out = new HashMap<>();
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT table_name, column_name, udt_name"
                     + " FROM information_schema.columns WHERE table_schema = current_schema()");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.computeIfAbsent(rs.getString("table_name"), k -> new TreeMap<>())
                        .put(rs.getString("column_name"), rs.getString("udt_name"));
            }
        }
        return out;
    }

    /** One line per declared column the schema lacks or types differently. */
    static List<String> declaredButNotInSchema(Map<String, Map<String, String>> schema) {
        List<String> problems = new ArrayList<>();
        for (Table<?> t : declared()) {
            Map<String, String> columns = schema.getOrDefault(t.name, Map.of());
            for (Column<?> col : t.columns()) {
                String actual = columns.get(col.name());
                String expected = udtName(col.type());
                if (actual == null) {
                    problems.add(t.name + "." + col.name() + " is declared but no migration creates it");
                } else if (!actual.equals(expected)) {
                    problems.add(t.name + "." + col.name() + " is declared " + col.type() + " (" + expected
                            + ") but the schema has " + actual);
                }
            }
        }
        return problems;
    }

    @Test
    void everyDeclaredColumnExistsInTheMigratedSchemaWithItsType() throws Exception {
        DataSource ds = TestDb.migrated();
        assertEquals(List.of(), declaredButNotInSchema(schema(ds)));
    }

    @Test
    void everySchemaColumnOfTheseTablesIsDeclared() throws Exception {
        // The other direction: a migration's new column that no declaration writes would stay NULL (or, NOT NULL
        // without a default, fail every write), and the reader, which selects what is declared, would never see it.
        Map<String, Map<String, String>> schema = schema(TestDb.migrated());
        List<String> problems = new ArrayList<>();
        for (Table<?> t : declared()) {
            Set<String> names = new java.util.HashSet<>(FILLED_BY_THE_DATABASE.getOrDefault(t.name, Set.of("app_pk")));
            t.columns().forEach(c -> names.add(c.name()));
            for (String column : schema.get(t.name).keySet()) {
                if (!names.contains(column)) {
                    problems.add(t.name + "." + column + " is in the schema but not declared");
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void aColumnMissingFromTheMigrationsOrOfAnotherTypeIsReported() throws Exception {
        // The check itself can fail: on a schema that lost a column and changed another's type it names both.
        DataSource ds = TestDb.migrated();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE task DROP COLUMN locality");
            st.execute("ALTER TABLE job ALTER COLUMN num_tasks TYPE bigint");
        }
        assertEquals(List.of("job.num_tasks is declared INT (int4) but the schema has int8",
                        "task.locality is declared but no migration creates it"),
                declaredButNotInSchema(schema(ds)).stream().sorted().toList());
    }
}
