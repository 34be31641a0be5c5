package io.sparkscope.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The task table's partitions: one per month of application start, each the app_pk range
 * {@code [month × 2^32, (month + 1) × 2^32)} (the database gives a new application an app_pk in its start month's
 * range), one for the rows stored before partitioning, and a default one for a month whose partition does not exist
 * yet. Writers and prune create a month's partition ahead of its rows; a row that arrives first waits in the default
 * partition and moves when the month's partition is created, so a write never fails for a missing partition.
 */
public final class TaskPartitions {
    /** app_pk values per month. */
    public static final long MONTH_SPAN = 1L << 32;

    /** PostgreSQL's text of a range bound: {@code FOR VALUES FROM ('1') TO ('2')}, MINVALUE or MAXVALUE. */
    private static final Pattern BOUND = Pattern.compile(
            "FOR VALUES FROM \\((?:'(-?\\d+)'|(-?\\d+)|(MINVALUE))\\) TO \\((?:'(-?\\d+)'|(-?\\d+)|(MAXVALUE))\\)");

    private TaskPartitions() {
    }

    /**
     * One range partition of the task table.
     *
     * @param name partition table name
     * @param from first app_pk it holds ({@link Long#MIN_VALUE} for MINVALUE)
     * @param to   first app_pk past it ({@link Long#MAX_VALUE} for MAXVALUE)
     */
    public record Partition(String name, long from, long to) {
    }

    /** Months from January 1970 to the given epoch milliseconds, in UTC (the database computes the same). */
    public static long monthOf(long epochMs) {
        ZonedDateTime t = Instant.ofEpochMilli(epochMs).atZone(ZoneOffset.UTC);
        return (t.getYear() - 1970L) * 12 + t.getMonthValue() - 1;
    }

    /** The name of month {@code month}'s partition, as {@code sparkscope_task_partition} names it. */
    public static String nameOf(long month) {
        return month < 1 ? "task_before" : String.format(Locale.ROOT, "task_%d_%02d", 1970 + month / 12, month % 12 + 1);
    }

    /** The month a write of an application that started at {@code startMs} (≤ 0: not known yet) goes to. */
    public static long monthOfStart(long startMs) {
        return monthOf(startMs > 0 ? startMs : System.currentTimeMillis());
    }

    /** Creates month {@code month}'s partition if it is missing (moving its rows out of the default partition). */
    public static String ensure(Connection c, long month) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT sparkscope_task_partition(?)")) {
            ps.setLong(1, month);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /** The range partitions, in app_pk order (the default partition is left out). */
    public static List<Partition> list(Connection c) throws SQLException {
        List<Partition> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT c.relname, pg_get_expr(c.relpartbound, c.oid)"
                + " FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
                + " WHERE i.inhparent = to_regclass('task')");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Matcher m = BOUND.matcher(rs.getString(2));
                if (m.find()) {
                    long from = m.group(3) != null ? Long.MIN_VALUE
                            : Long.parseLong(m.group(1) != null ? m.group(1) : m.group(2));
                    long to = m.group(6) != null ? Long.MAX_VALUE
                            : Long.parseLong(m.group(4) != null ? m.group(4) : m.group(5));
                    out.add(new Partition(rs.getString(1), from, to));
                }
            }
        }
        out.sort((a, b) -> Long.compare(a.from(), b.from()));
        return out;
    }
}
