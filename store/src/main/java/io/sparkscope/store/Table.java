package io.sparkscope.store;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A child table of {@code application}: primary key {@code (app_pk, keys…)}, the rest plain values. Generates the two
 * statements the writer needs, both parameterised:
 * <ul>
 *   <li>an upsert on the natural key whose update is skipped when nothing changed, so rewriting the same snapshot
 *       leaves rows (and their MVCC versions) untouched;</li>
 *   <li>a delete of the app's rows whose keys are not in the snapshot, keys passed as arrays to {@code unnest}.</li>
 * </ul>
 */
final class Table {
    final String name;
    final List<Column> keys;
    final List<Column> values;

    Table(String name, List<Column> keys, List<Column> values) {
        this.name = name;
        this.keys = List.copyOf(keys);
        this.values = List.copyOf(values);
    }

    /** Key columns then value columns: the order of a row's {@code Object[]} (app_pk excluded). */
    List<Column> columns() {
        List<Column> all = new ArrayList<>(keys);
        all.addAll(values);
        return all;
    }

    String upsertSql() {
        List<Column> cols = columns();
        String names = cols.stream().map(Column::name).collect(Collectors.joining(", "));
        String markers = cols.stream().map(c -> c.type().marker()).collect(Collectors.joining(", "));
        String conflict = keys.stream().map(Column::name).collect(Collectors.joining(", "));
        String set = values.stream().map(c -> c.name() + " = EXCLUDED." + c.name()).collect(Collectors.joining(", "));
        String mine = values.stream().map(c -> "t." + c.name()).collect(Collectors.joining(", "));
        String theirs = values.stream().map(c -> "EXCLUDED." + c.name()).collect(Collectors.joining(", "));
        return "INSERT INTO " + name + " AS t (app_pk, " + names + ") VALUES (?, " + markers + ")"
                + " ON CONFLICT (app_pk, " + conflict + ") DO UPDATE SET " + set
                + " WHERE (" + mine + ") IS DISTINCT FROM (" + theirs + ")";
    }

    /** Session-private staging table of the COPY path: the child's columns without app_pk, dropped at commit. */
    String stagingName() {
        return "sparkscope_stage_" + name;
    }

    String createStagingSql() {
        return "CREATE TEMP TABLE " + stagingName() + " ("
                + columns().stream().map(c -> c.name() + " " + c.type().sqlType()).collect(Collectors.joining(", "))
                + ") ON COMMIT DROP";
    }

    String copySql() {
        return "COPY " + stagingName() + " ("
                + columns().stream().map(Column::name).collect(Collectors.joining(", ")) + ") FROM STDIN";
    }

    /** COPY straight into the child table (brand-new application: nothing to conflict with). */
    String copyIntoSql() {
        return "COPY " + name + " (app_pk, "
                + columns().stream().map(Column::name).collect(Collectors.joining(", ")) + ") FROM STDIN";
    }

    /** {@link #upsertSql()} for all staged rows at once: one statement, one plan, same conflict rule. */
    String upsertFromStagingSql() {
        List<Column> cols = columns();
        String names = cols.stream().map(Column::name).collect(Collectors.joining(", "));
        String conflict = keys.stream().map(Column::name).collect(Collectors.joining(", "));
        String set = values.stream().map(c -> c.name() + " = EXCLUDED." + c.name()).collect(Collectors.joining(", "));
        String mine = values.stream().map(c -> "t." + c.name()).collect(Collectors.joining(", "));
        String theirs = values.stream().map(c -> "EXCLUDED." + c.name()).collect(Collectors.joining(", "));
        return "INSERT INTO " + name + " AS t (app_pk, " + names + ") SELECT CAST(? AS bigint), " + names
                + " FROM " + stagingName()
                + " ON CONFLICT (app_pk, " + conflict + ") DO UPDATE SET " + set
                + " WHERE (" + mine + ") IS DISTINCT FROM (" + theirs + ")";
    }

    /**
     * Index on the staged keys, built before the stale-row delete: the anti-join then stays cheap whatever plan the
     * planner picks. (Without it, a fresh app's rows still unknown to the statistics made it estimate one row and
     * choose a nested loop over a sequential scan of the staging table: 100 000² comparisons.)
     */
    String indexStagingSql() {
        return "CREATE INDEX ON " + stagingName() + " ("
                + keys.stream().map(Column::name).collect(Collectors.joining(", ")) + ")";
    }

    /** {@link #deleteStaleSql()} against the staged rows instead of key arrays. */
    String deleteStaleFromStagingSql() {
        String match = keys.stream().map(c -> "t." + c.name() + " = k." + c.name()).collect(Collectors.joining(" AND "));
        return "DELETE FROM " + name + " t WHERE t.app_pk = ? AND NOT EXISTS (SELECT 1 FROM " + stagingName()
                + " k WHERE " + match + ")";
    }

    String deleteStaleSql() {
        String arrays = keys.stream().map(c -> "CAST(? AS " + c.type().arrayType() + ")").collect(Collectors.joining(", "));
        String aliases = keys.stream().map(Column::name).collect(Collectors.joining(", "));
        String match = keys.stream().map(c -> "t." + c.name() + " = k." + c.name()).collect(Collectors.joining(" AND "));
        return "DELETE FROM " + name + " t WHERE t.app_pk = ? AND NOT EXISTS (SELECT 1 FROM unnest(" + arrays
                + ") AS k(" + aliases + ") WHERE " + match + ")";
    }

    @Override
    public String toString() {
        return name + Stream.concat(keys.stream(), values.stream()).map(Column::name).toList();
    }
}
