package io.sparkscope.store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A child table of {@code application}: primary key {@code (app_pk, keys…)}, the rest plain values, each column
 * declared once with the getter its value comes from ({@link Column}). Everything the writer sends is derived from
 * that one list: the statements below, all parameterised, and each row's values ({@link #row}).
 * <ul>
 *   <li>an upsert on the natural key whose update is skipped when nothing changed, so rewriting the same snapshot
 *       leaves rows (and their MVCC versions) untouched;</li>
 *   <li>a delete of the app's rows whose keys are not in the snapshot, keys passed as arrays to {@code unnest};</li>
 *   <li>the COPY, staging-table and upsert-from-staging statements of the bulk path.</li>
 * </ul>
 *
 * @param <R> what one row is made of (e.g. a stage summary with its position in the snapshot)
 */
final class Table<R> {
    final String name;
    final List<Column<R>> keys;
    final List<Column<R>> values;
    private final List<Column<R>> columns;

    Table(String name, List<Column<R>> keys, List<Column<R>> values) {
        this.name = name;
        this.keys = List.copyOf(keys);
        this.values = List.copyOf(values);
        List<Column<R>> all = new ArrayList<>(keys);
        all.addAll(values);
        this.columns = List.copyOf(all);
    }

    static <R> Builder<R> named(String name) {
        return new Builder<>(name);
    }

    /** Key columns then value columns: the order of a row's {@code Object[]} (app_pk excluded). */
    List<Column<R>> columns() {
        return columns;
    }

    /** The values of the row made of {@code source}, in {@link #columns()} order. */
    Object[] row(R source) {
        Object[] row = new Object[columns.size()];
        for (int i = 0; i < row.length; i++) {
            row[i] = columns.get(i).valueOf(source);
        }
        return row;
    }

    /** Every column by name, jsonb ones as text (what the reader parses), for {@code SELECT … FROM} this table. */
    String selectList() {
        return columns.stream().map(c -> c.type() == Column.Type.JSONB ? c.name() + "::text AS " + c.name() : c.name())
                .collect(Collectors.joining(", "));
    }

    String upsertSql() {
        String names = names(columns, "");
        String markers = columns.stream().map(c -> c.type().marker()).collect(Collectors.joining(", "));
        return "INSERT INTO " + name + " AS t (app_pk, " + names + ") VALUES (?, " + markers + ")" + onConflict();
    }

    /** The upsert's conflict rule: update on the natural key, and only when some value differs. */
    private String onConflict() {
        String set = values.stream().map(c -> c.name() + " = EXCLUDED." + c.name()).collect(Collectors.joining(", "));
        return " ON CONFLICT (app_pk, " + names(keys, "") + ") DO UPDATE SET " + set
                + " WHERE (" + names(values, "t.") + ") IS DISTINCT FROM (" + names(values, "EXCLUDED.") + ")";
    }

    private static String names(List<? extends Column<?>> cols, String prefix) {
        return cols.stream().map(c -> prefix + c.name()).collect(Collectors.joining(", "));
    }

    /** Session-private staging table of the COPY path: the child's columns without app_pk, dropped at commit. */
    String stagingName() {
        return "sparkscope_stage_" + name;
    }

    String createStagingSql() {
        return "CREATE TEMP TABLE " + stagingName() + " ("
                + columns.stream().map(c -> c.name() + " " + c.type().sqlType()).collect(Collectors.joining(", "))
                + ") ON COMMIT DROP";
    }

    String copySql() {
        return "COPY " + stagingName() + " (" + names(columns, "") + ") FROM STDIN";
    }

    /** COPY straight into the child table (brand-new application: nothing to conflict with). */
    String copyIntoSql() {
        return "COPY " + name + " (app_pk, " + names(columns, "") + ") FROM STDIN";
    }

    /** {@link #upsertSql()} for all staged rows at once: one statement, one plan, same conflict rule. */
    String upsertFromStagingSql() {
        String names = names(columns, "");
        return "INSERT INTO " + name + " AS t (app_pk, " + names + ") SELECT CAST(? AS bigint), " + names
                + " FROM " + stagingName() + onConflict();
    }

    /**
     * Index on the staged keys, built before the stale-row delete: the anti-join then stays cheap whatever plan the
     * planner picks. (Without it, a fresh app's rows still unknown to the statistics made it estimate one row and
     * choose a nested loop over a sequential scan of the staging table: 100 000² comparisons.)
     */
    String indexStagingSql() {
        return "CREATE INDEX ON " + stagingName() + " (" + names(keys, "") + ")";
    }

    /** {@link #deleteStaleSql()} against the staged rows instead of key arrays. */
    String deleteStaleFromStagingSql() {
        return "DELETE FROM " + name + " t WHERE t.app_pk = ? AND NOT EXISTS (SELECT 1 FROM " + stagingName()
                + " k WHERE " + keyMatch() + ")";
    }

    String deleteStaleSql() {
        String arrays = keys.stream().map(c -> "CAST(? AS " + c.type().arrayType() + ")").collect(Collectors.joining(", "));
        return "DELETE FROM " + name + " t WHERE t.app_pk = ? AND NOT EXISTS (SELECT 1 FROM unnest(" + arrays
                + ") AS k(" + names(keys, "") + ") WHERE " + keyMatch() + ")";
    }

    /**
     * {@link #deleteStaleSql()} (or, staged, {@link #deleteStaleFromStagingSql()}) among the rows whose first key is
     * in an array bound second: the child rows of the parents a partial snapshot lists (a listed SQL execution comes
     * with its whole plan, so its plan rows no longer in it are stale; those of executions it does not list stay).
     */
    String deleteStaleWithinSql(boolean staged) {
        Column<?> parent = keys.get(0);
        String within = "t.app_pk = ? AND t." + parent.name() + " = ANY(CAST(? AS " + parent.type().arrayType()
                + "))";
        if (staged) {
            return "DELETE FROM " + name + " t WHERE " + within + " AND NOT EXISTS (SELECT 1 FROM " + stagingName()
                    + " k WHERE " + keyMatch() + ")";
        }
        String arrays = keys.stream().map(c -> "CAST(? AS " + c.type().arrayType() + ")").collect(Collectors.joining(", "));
        return "DELETE FROM " + name + " t WHERE " + within + " AND NOT EXISTS (SELECT 1 FROM unnest(" + arrays
                + ") AS k(" + names(keys, "") + ") WHERE " + keyMatch() + ")";
    }

    private String keyMatch() {
        return keys.stream().map(c -> "t." + c.name() + " = k." + c.name()).collect(Collectors.joining(" AND "));
    }

    @Override
    public String toString() {
        return name + columns.stream().map(Column::name).toList();
    }

    /**
     * Declares a table column by column. A group of columns whose values all come from one part of the row source
     * (e.g. the {@code StageSummary} of a stage row) is declared over that part, so each getter is a plain accessor.
     */
    static final class Builder<R> {
        private final String name;
        private final List<Column<R>> keys = new ArrayList<>();
        private final List<Column<R>> values = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        @SafeVarargs
        final Builder<R> keys(Column<R>... cols) {
            keys.addAll(List.of(cols));
            return this;
        }

        @SafeVarargs
        final <T> Builder<R> keys(Function<? super R, ? extends T> part, Column<T>... cols) {
            for (Column<T> c : cols) {
                keys.add(c.on(part));
            }
            return this;
        }

        @SafeVarargs
        final Builder<R> values(Column<R>... cols) {
            values.addAll(List.of(cols));
            return this;
        }

        @SafeVarargs
        final <T> Builder<R> values(Function<? super R, ? extends T> part, Column<T>... cols) {
            for (Column<T> c : cols) {
                values.add(c.on(part));
            }
            return this;
        }

        Table<R> build() {
            return new Table<>(name, keys, values);
        }
    }
}
