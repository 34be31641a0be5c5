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
