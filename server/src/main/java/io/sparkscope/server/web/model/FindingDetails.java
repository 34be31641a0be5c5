package io.sparkscope.server.web.model;

import io.sparkscope.server.web.text.Fmt;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A finding's numbers ({@code details}) as a labelled table for people: each key gets a human label and its unit
 * ("Median task time: 1.1 s", "GC share of run time: 33 %"), lists of records become small tables with labelled
 * columns, task-time distributions become quantile tables. Keys a heuristic of a user's own adds are labelled from
 * their name ({@code maxWaitMs} → "Max wait", a duration). Error groups are shown apart ({@link ErrorGroup}).
 *
 * @param rows      one per value, in the heuristic's order
 * @param tables    one per list of records or distribution, after the rows
 */
public record FindingDetails(List<Row> rows, List<Table> tables) {
    /** Detail keys shown elsewhere: error groups have their own section, topErrors repeats them. */
    static final Set<String> SHOWN_APART = Set.of("errorGroups", "topErrors", "reasons", "failureReason",
            "signature");

    /** How a value reads. */
    public enum Kind { DURATION_MS, DURATION_NS, BYTES, SHARE, TIMES, COUNT, CORE_HOURS, CORE_MS, STAGE, APP, TEXT }

    /** @param refs the stage keys or application ids the text names ({@link Kind#STAGE}, {@link Kind#APP}); else empty */
    public record Row(String key, String label, String text, Kind kind, List<String> refs) {
        public Row {
            refs = List.copyOf(refs);
        }
    }

    /** @param columns labels; every row has one text per column */
    public record Table(String key, String label, List<String> columns, List<List<String>> rows) {
        public Table {
            columns = List.copyOf(columns);
            rows = rows.stream().map(List::copyOf).toList();
        }
    }

    public FindingDetails {
        rows = List.copyOf(rows);
        tables = List.copyOf(tables);
    }

    public boolean isEmpty() {
        return rows.isEmpty() && tables.isEmpty();
    }

    public static FindingDetails of(String heuristic, Map<String, Object> details) {
        List<Row> rows = new ArrayList<>();
        List<Table> tables = new ArrayList<>();
        for (Map.Entry<String, Object> e : details.entrySet()) {
            String key = e.getKey();
            Object v = e.getValue();
            if (SHOWN_APART.contains(key) || v == null) {
                continue;
            }
            DetailLabels.Label label = DetailLabels.of(heuristic, key);
            if (v instanceof Map<?, ?> m && m.get("quantiles") instanceof List<?> qs) {
                tables.add(distribution(key, label.text(), qs, m));
            } else if (v instanceof List<?> l && !l.isEmpty() && l.stream().allMatch(x -> x instanceof Map)) {
                tables.add(records(heuristic, key, label.text(), l));
            } else if (v instanceof Map<?, ?> m) {
                tables.add(counts(heuristic, key, label.text(), m));
            } else {
                rows.add(row(key, label, v));
            }
        }
        return new FindingDetails(rows, tables);
    }

    private static Row row(String key, DetailLabels.Label label, Object v) {
        if (v instanceof List<?> l) {
            List<String> parts = new ArrayList<>();
            for (Object o : l.subList(0, Math.min(l.size(), 50))) {
                parts.add(format(label.kind(), o));
            }
            String text = String.join(", ", parts) + (l.size() > 50 ? " … (" + Fmt.count(l.size()) + " in all)" : "");
            return new Row(key, label.text(), text, label.kind(), label.kind() == Kind.STAGE || label.kind() == Kind.APP
                    ? l.stream().map(String::valueOf).toList() : List.of());
        }
        return new Row(key, label.text(), format(label.kind(), v), label.kind(),
                label.kind() == Kind.STAGE || label.kind() == Kind.APP ? List.of(String.valueOf(v)) : List.of());
    }

    /** One value in its unit; what is not a number of that unit is shown as written. */
    public static String format(Kind kind, Object v) {
        if (v instanceof Boolean b) {
            return b ? "yes" : "no";
        }
        if (!(v instanceof Number n)) {
            return String.valueOf(v);
        }
        double d = n.doubleValue();
        long l = Math.round(d);
        return switch (kind) {
            case DURATION_MS -> Fmt.duration(l);
            case DURATION_NS -> Fmt.duration(Math.round(d / 1_000_000));
            case BYTES -> Fmt.bytes(l);
            case SHARE -> Fmt.percent(d);
            case TIMES -> String.format(Locale.ROOT, d < 10 ? "%.1f×" : "%.0f×", d);
            case CORE_HOURS -> Fmt.coreHours(Math.round(d * 3_600_000));
            case CORE_MS -> Fmt.coreHours(l);
            case COUNT -> d == l ? Fmt.count(l) : String.format(Locale.ROOT, "%.2f", d);
            case STAGE, APP, TEXT -> d == l ? Long.toString(l) : String.format(Locale.ROOT, "%.2f", d);
        };
    }

    /** A task-metric distribution: a row per metric, a column per quantile. */
    private static Table distribution(String key, String label, List<?> quantiles, Map<?, ?> m) {
        List<String> columns = new ArrayList<>();
        columns.add("Metric");
        for (Object q : quantiles) {
            columns.add(quantileName(((Number) q).doubleValue()));
        }
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if ("quantiles".equals(e.getKey()) || !(e.getValue() instanceof List<?> values)) {
                continue;
            }
            String path = String.valueOf(e.getKey());
            DetailLabels.Label metric = DetailLabels.metric(path);
            List<String> row = new ArrayList<>();
            row.add(metric.text());
            for (int i = 0; i < quantiles.size(); i++) {
                row.add(i < values.size() ? format(metric.kind(), values.get(i)) : "");
            }
            rows.add(row);
        }
        return new Table(key, label, columns, rows);
    }

    static String quantileName(double q) {
        if (q == 0) {
            return "min";
        }
        if (q == 1) {
            return "max";
        }
        if (q == 0.5) {
            return "median";
        }
        double p = q * 100;
        return p == Math.rint(p) ? "p" + (long) p : String.format(Locale.ROOT, "p%.1f", p);
    }

    /** A list of records (the busiest executors, the longest gaps): a column per key, labelled. */
    private static Table records(String heuristic, String key, String label, List<?> list) {
        List<String> keys = new ArrayList<>();
        for (Object o : list) {
            for (Object k : ((Map<?, ?>) o).keySet()) {
                if (!keys.contains(String.valueOf(k))) {
                    keys.add(String.valueOf(k));
                }
            }
        }
        List<String> columns = new ArrayList<>();
        List<DetailLabels.Label> labels = new ArrayList<>();
        for (String k : keys) {
            DetailLabels.Label l = DetailLabels.of(heuristic, k);
            labels.add(l);
            columns.add(l.text());
        }
        List<List<String>> rows = new ArrayList<>();
        for (Object o : list.subList(0, Math.min(list.size(), 50))) {
            Map<?, ?> m = (Map<?, ?>) o;
            List<String> row = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                Object v = m.get(keys.get(i));
                row.add(v == null ? "" : v instanceof List<?> l ? String.join(", ", l.stream()
                        .map(String::valueOf).toList()) : format(labels.get(i).kind(), v));
            }
            rows.add(row);
        }
        return new Table(key, label, columns, rows);
    }

    /** A map of names to numbers (end reasons and their counts). */
    private static Table counts(String heuristic, String key, String label, Map<?, ?> m) {
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            rows.add(List.of(String.valueOf(e.getKey()), e.getValue() instanceof Number
                    ? format(DetailLabels.of(heuristic, key).kind(), e.getValue()) : String.valueOf(e.getValue())));
        }
        return new Table(key, label, List.of("", "Count"), rows);
    }
}
