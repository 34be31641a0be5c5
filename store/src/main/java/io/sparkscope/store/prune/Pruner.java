package io.sparkscope.store.prune;

import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TaskPartitions;
import io.sparkscope.store.ingest.AppKey;

import javax.sql.DataSource;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Removes old applications, or only their task rows, so that a database kept for years stays the size of its
 * recent history. An application's age is its end time, or for one that never ended its last event's time (both
 * Spark's clock, as the pages show them).
 *
 * <p>Work goes in short transactions of at most {@link Options#batchSize()} task rows each (task rows are nine in
 * ten of an application's rows), so a server reading the database and listeners writing to it never wait long: a
 * deleted row is invisible only once its transaction commits, and a reader's snapshot keeps seeing it until then.
 * Whole applications are then deleted a few at a time; their remaining rows (stages, statistics, configuration,
 * findings, …) go with them through the schema's {@code ON DELETE CASCADE}. The last transaction for each
 * application takes the writers' lock on it, so a write of the same application (a late import) is never
 * half-removed.
 *
 * <p>With {@link Scope#TASK_ROWS} (the command's {@code --keep-findings}) the application, its stages, jobs,
 * executors, statistics and findings stay; its stage rows then say no task is kept (and that their stored tasks are
 * unknown, so a later import of the same log writes them again), and a {@code task_prune} row records the prune for
 * {@code reanalyze}. Rerunning after an interruption finishes what the last run left.
 */
public final class Pruner {
    /** What goes. */
    public enum Scope {
        /** Whole applications with every row of theirs. */
        APPLICATIONS,
        /** Only the per-task rows; the application and its findings stay. */
        TASK_ROWS
    }

    /**
     * @param cutoff    epoch milliseconds: applications whose age (see the class comment) is before it go
     * @param batchSize task rows per transaction; whole applications are deleted {@code max(1, batchSize / 100)}
     *                  per transaction
     * @param dryRun    count what would go, change nothing
     */
    public record Options(long cutoff, Scope scope, int batchSize, boolean dryRun) {
        public Options {
            if (batchSize < 1) {
                throw new IllegalArgumentException("batch size must be at least 1, got " + batchSize);
            }
        }
    }

    /**
     * What was removed so far (or, in a dry run, would be).
     *
     * @param candidates   applications old enough to prune
     * @param applications applications handled: removed, or with {@link Scope#TASK_ROWS} stripped of their tasks
     * @param taskRows     task rows removed
     * @param otherRows    rows of the other tables removed with whole applications (the application rows included)
     * @param bytes        estimate of the space freed: rows removed × their table's average size with its indexes
     * @param transactions transactions committed (0 in a dry run)
     */
    public record Tally(int candidates, long applications, long taskRows, long otherRows, long bytes,
                        long transactions) {
        Tally plus(long apps, long tasks, long other, long freed, long tx) {
            return new Tally(candidates, applications + apps, taskRows + tasks, otherRows + other, bytes + freed,
                    transactions + tx);
        }
    }

    /** Told after each group of applications. */
    public interface Progress {
        void report(Tally soFar);
    }

    /** Applications whose task rows are deleted together (the task deletes' {@code ANY} array stays small). */
    private static final int GROUP = 500;

    /** Roughly how many rows besides its tasks an application has: what sizes the application delete batches. */
    private static final int ROWS_PER_APPLICATION = 100;

    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]*");

    private static final String AGE = "(CASE WHEN a.end_time > 0 THEN a.end_time ELSE a.last_event_time END)";

    private static final String APPLICATIONS_SQL = "SELECT a.app_pk, a.app_id, a.attempt_id FROM application a"
            + " WHERE " + AGE + " < ? ORDER BY a.app_pk";

    /** With task rows left, or stage rows still saying they keep some (an interrupted prune marks them last). */
    private static final String TASK_ROWS_SQL = "SELECT a.app_pk, a.app_id, a.attempt_id FROM application a"
            + " WHERE " + AGE + " < ? AND (EXISTS (SELECT 1 FROM task t WHERE t.app_pk = a.app_pk)"
            + " OR EXISTS (SELECT 1 FROM stage_attempt s WHERE s.app_pk = a.app_pk"
            + " AND (s.kept_tasks IS NULL OR s.kept_tasks <> 0))) ORDER BY a.app_pk";

    /**
     * One batch: a bounded set of task rows of the group's applications, found by the indexes led by app_pk. A row's
     * ctid is its place in its own partition only, so the outer app_pk test keeps the delete to the group's rows (at
     * worst a few more of them, from another partition at the same place).
     */
    private static final String DELETE_TASKS_SQL = "DELETE FROM task WHERE app_pk = ANY (?) AND ctid = ANY (ARRAY("
            + "SELECT ctid FROM task WHERE app_pk = ANY (?) LIMIT ?))";

    private static final String MARK_STAGES_SQL = "UPDATE stage_attempt SET kept_tasks = 0, tasks_digest = NULL"
            + " WHERE app_pk = ANY (?) AND (kept_tasks IS DISTINCT FROM 0 OR tasks_digest IS NOT NULL)";

    private static final String RECORD_PRUNE_SQL = "INSERT INTO task_prune (app_pk, task_rows)"
            + " SELECT p, n FROM unnest(CAST(? AS bigint[]), CAST(? AS bigint[])) AS u(p, n)"
            + " ON CONFLICT (app_pk) DO UPDATE SET task_rows = task_prune.task_rows + EXCLUDED.task_rows,"
            + " pruned_at = now()";

    private static final String DELETE_APPLICATIONS_SQL = "DELETE FROM application WHERE app_pk = ANY (?)";

    private final DataSource dataSource;
    private final Options options;
    private final List<PartitionDrop> partitionDrops = new ArrayList<>();

    public Pruner(DataSource dataSource, Options options) {
        this.dataSource = dataSource;
        this.options = options;
    }

    private record Candidate(long pk, String appId, String attemptId) {
    }

    /** Prunes (or counts, in a dry run) and returns the totals; {@code progress} hears after each group. */
    public Tally run(Progress progress) throws SQLException {
        // measured before anything goes, as a dry run measures it, so both estimate the same bytes
        Map<String, Double> rowBytes = averageRowBytes();
        Tally dropped = dropWholePartitions(rowBytes.getOrDefault("task", 0.0));
        List<Candidate> candidates = candidates();
        Tally tally = new Tally(candidates.size(), 0, dropped.taskRows(), 0, dropped.bytes(), dropped.transactions());
        if (candidates.isEmpty()) {
            return tally;
        }
        for (int from = 0; from < candidates.size(); from += GROUP) {
            List<Candidate> group = candidates.subList(from, Math.min(candidates.size(), from + GROUP));
            tally = options.dryRun() ? count(group, rowBytes, tally) : prune(group, rowBytes, tally);
            progress.report(tally);
        }
        return tally;
    }

    /**
     * A whole task partition dropped (or, in a dry run, that would be), or left to row deletes because the lock it
     * needs was not granted in time.
     *
     * @param name     partition table
     * @param taskRows its rows (in a dry run PostgreSQL's estimate)
     * @param bytes    its size with indexes and TOAST
     * @param dropped  false: a reader or writer held the task table too long; its rows went row by row instead
     */
    public record PartitionDrop(String name, long taskRows, long bytes, boolean dropped) {
    }

    /** The task partitions the last {@link #run} dropped or left (in a dry run: would drop), oldest first. */
    public List<PartitionDrop> partitionDrops() {
        return List.copyOf(partitionDrops);
    }

    /**
     * Applications whose task rows a {@link Scope#TASK_ROWS} prune removed and that have none again (a later import
     * of their log brings them back, and then their findings can be recomputed): {@code reanalyze} keeps their
     * findings as they are.
     */
    public static Set<AppKey> tasksPruned(DataSource ds) throws SQLException {
        Set<AppKey> out = new HashSet<>();
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT a.app_id, a.attempt_id FROM task_prune p"
                     + " JOIN application a ON a.app_pk = p.app_pk"
                     + " WHERE NOT EXISTS (SELECT 1 FROM task t WHERE t.app_pk = p.app_pk)");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(new AppKey(rs.getString(1), rs.getString(2)));
            }
        }
        return out;
    }

    private List<Candidate> candidates() throws SQLException {
        List<Candidate> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(options.scope() == Scope.APPLICATIONS
                     ? APPLICATIONS_SQL : TASK_ROWS_SQL)) {
            ps.setLong(1, options.cutoff());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Candidate(rs.getLong(1), rs.getString(2), rs.getString(3)));
                }
            }
        }
        return out;
    }

    /**
     * The tables an application's rows live in (application itself and every table with an app_pk column, found in
     * the catalog so tables added by later migrations count too), each with its average bytes per row including
     * indexes and TOAST: what one removed row frees, on average.
     */
    private Map<String, Double> averageRowBytes() throws SQLException {
        Map<String, Double> out = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection()) {
            List<String> tables = new ArrayList<>();
            tables.add("application");
            try (PreparedStatement ps = c.prepareStatement("SELECT c.table_name FROM information_schema.columns c"
                    + " JOIN information_schema.tables t ON t.table_schema = c.table_schema"
                    + " AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'"
                    + " WHERE c.table_schema = current_schema() AND c.column_name = 'app_pk'"
                    + " AND c.table_name <> 'application' AND NOT EXISTS (SELECT 1 FROM pg_inherits i"
                    + " WHERE i.inhrelid = to_regclass(quote_ident(c.table_name)))" // a partition counts in its table
                    + " ORDER BY c.table_name");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String table : tables) {
                long bytes;
                double rows;
                // a partitioned table (task) has neither size nor row estimate of its own: its partitions' sums
                try (PreparedStatement ps = c.prepareStatement("SELECT sum(pg_total_relation_size(c.oid)),"
                        + " CASE WHEN bool_and(c.reltuples < 0) THEN -1 ELSE sum(greatest(c.reltuples, 0)) END"
                        + " FROM pg_class c WHERE c.relkind <> 'p' AND (c.oid = to_regclass(?)"
                        + " OR c.oid IN (SELECT relid FROM pg_partition_tree(to_regclass(?)))) HAVING count(*) > 0")) {
                    ps.setString(1, quote(table));
                    ps.setString(2, quote(table));
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            continue;
                        }
                        bytes = rs.getLong(1);
                        rows = rs.getDouble(2);
                    }
                }
                if (rows <= 0) {
                    // never analysed (reltuples -1), or analysed empty: count it
                    rows = countAll(c, table);
                }
                out.put(table, rows <= 0 ? 0.0 : bytes / rows);
            }
        }
        return out;
    }

    private Tally count(List<Candidate> group, Map<String, Double> rowBytes, Tally tally) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            Array pks = pks(c, group);
            long tasks = countOf(c, "task", pks);
            double freed = tasks * rowBytes.getOrDefault("task", 0.0);
            long other = 0;
            if (options.scope() == Scope.APPLICATIONS) {
                for (Map.Entry<String, Double> t : rowBytes.entrySet()) {
                    if (!t.getKey().equals("task")) {
                        long n = t.getKey().equals("application") ? group.size() : countOf(c, t.getKey(), pks);
                        other += n;
                        freed += n * t.getValue();
                    }
                }
            }
            return tally.plus(group.size(), tasks, other, Math.round(freed), 0);
        }
    }

    private Tally prune(List<Candidate> group, Map<String, Double> rowBytes, Tally tally) throws SQLException {
        double taskBytes = rowBytes.getOrDefault("task", 0.0);
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                long transactions = 0;
                Map<Long, Long> tasksOf = new LinkedHashMap<>();
                group.forEach(a -> tasksOf.put(a.pk(), 0L));
                long tasks = 0;
                // Unlocked batches: each removes what it finds and commits. A writer that adds task rows of one of
                // these applications meanwhile is caught by the locked last step below.
                while (true) {
                    long n = deleteTaskBatch(c, pks(c, group), tasksOf);
                    c.commit();
                    transactions++;
                    tasks += n;
                    if (n < options.batchSize()) {
                        break;
                    }
                }
                Tally after = tally.plus(0, tasks, 0, Math.round(tasks * taskBytes), transactions);
                return options.scope() == Scope.TASK_ROWS
                        ? finishTaskRows(c, group, tasksOf, taskBytes, after)
                        : deleteApplications(c, group, rowBytes, after);
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /** Deletes one batch of task rows and adds each application's share to {@code tasksOf}. */
    private long deleteTaskBatch(Connection c, Array pks, Map<Long, Long> tasksOf) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(DELETE_TASKS_SQL + " RETURNING app_pk")) {
            ps.setArray(1, pks);
            ps.setArray(2, pks);
            ps.setInt(3, options.batchSize());
            long n = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    tasksOf.merge(rs.getLong(1), 1L, Long::sum);
                    n++;
                }
            }
            return n;
        }
    }

    /** Under the writers' locks: any task row written meanwhile goes too, then the stage rows and the record. */
    private Tally finishTaskRows(Connection c, List<Candidate> group, Map<Long, Long> tasksOf, double taskBytes,
                                 Tally tally) throws SQLException {
        lock(c, group);
        Array pks = pks(c, group);
        long late = 0;
        long n;
        do {
            n = deleteTaskBatch(c, pks, tasksOf);
            late += n;
        } while (n >= options.batchSize());
        try (PreparedStatement ps = c.prepareStatement(MARK_STAGES_SQL)) {
            ps.setArray(1, pks);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(RECORD_PRUNE_SQL)) {
            ps.setArray(1, c.createArrayOf("bigint", tasksOf.keySet().toArray()));
            ps.setArray(2, c.createArrayOf("bigint", tasksOf.values().toArray()));
            ps.executeUpdate();
        }
        c.commit();
        return tally.plus(group.size(), late, 0, Math.round(late * taskBytes), 1);
    }

    /** A few applications per transaction, under the writers' locks, their remaining rows counted then cascaded. */
    private Tally deleteApplications(Connection c, List<Candidate> group, Map<String, Double> rowBytes, Tally tally)
            throws SQLException {
        int perTransaction = Math.max(1, options.batchSize() / ROWS_PER_APPLICATION);
        for (int from = 0; from < group.size(); from += perTransaction) {
            List<Candidate> some = group.subList(from, Math.min(group.size(), from + perTransaction));
            lock(c, some);
            Array pks = pks(c, some);
            long tasks = 0;
            long other = 0;
            double freed = 0;
            for (Map.Entry<String, Double> t : rowBytes.entrySet()) {
                long n = countOf(c, t.getKey(), pks);
                if (t.getKey().equals("task")) {
                    tasks += n;
                } else {
                    other += n;
                }
                freed += n * t.getValue();
            }
            try (PreparedStatement ps = c.prepareStatement(DELETE_APPLICATIONS_SQL)) {
                ps.setArray(1, pks);
                ps.executeUpdate();
            }
            c.commit();
            tally = tally.plus(some.size(), tasks, other, Math.round(freed), 1);
        }
        return tally;
    }

    /** How long a partition drop waits for readers and writers of the task table before leaving it to row deletes. */
    private static final String DROP_LOCK_TIMEOUT = "SET LOCAL lock_timeout = '10s'";

    /**
     * Whether a partition's range holds applications and all of them are old (by the prune's age). One without any
     * is left alone: nothing to gain, and its month may still be written to.
     */
    private static final String ALL_OLD_IN_RANGE_SQL = "SELECT count(*) > 0 AND count(*) FILTER (WHERE " + AGE
            + " >= ?) = 0 FROM application a WHERE a.app_pk >= ? AND a.app_pk < ?";

    /** As {@link #ALL_OLD_IN_RANGE_SQL}, row-locking the range's applications first so no write makes one young. */
    private static final String LOCK_RANGE_SQL = "SELECT count(*) FILTER (WHERE " + AGE + " >= ?) FROM (SELECT"
            + " a.end_time, a.last_event_time FROM application a WHERE a.app_pk >= ? AND a.app_pk < ? FOR SHARE) a";

    /**
     * Drops each task partition of a past month whose applications are all older than the cutoff: one DROP TABLE
     * instead of deleting its rows one by one, and the space goes back to the system at once. A partition that
     * straddles the cutoff (an application of its month still young) is left to the row deletes. The applications
     * keep their other rows here; the steps after this remove them, or with {@link Scope#TASK_ROWS} mark their
     * stages, as for any application. In a dry run the partitions are only listed (the row counts stay with the
     * applications, counted as before).
     */
    private Tally dropWholePartitions(double taskRowBytes) throws SQLException {
        partitionDrops.clear();
        Tally out = new Tally(0, 0, 0, 0, 0, 0);
        long thisMonth = TaskPartitions.monthOf(System.currentTimeMillis());
        try (Connection c = dataSource.getConnection()) {
            if (!options.dryRun()) {
                // created ahead, so this month's and next month's writes find their partition
                TaskPartitions.ensure(c, thisMonth);
                TaskPartitions.ensure(c, thisMonth + 1);
            }
            for (TaskPartitions.Partition p : TaskPartitions.list(c)) {
                // never this month's or a later one: its applications are still arriving
                if (p.to() > thisMonth * TaskPartitions.MONTH_SPAN || !allOldInRange(c, p)) {
                    continue;
                }
                if (options.dryRun()) {
                    partitionDrops.add(new PartitionDrop(p.name(), estimatedRows(c, p.name()), size(c, p.name()),
                            true));
                } else {
                    PartitionDrop d = drop(c, p);
                    partitionDrops.add(d);
                    // the tally's bytes stay the estimate a dry run gives; the partition's own size is in d
                    out = out.plus(0, d.taskRows(), 0, Math.round(d.taskRows() * taskRowBytes), d.dropped() ? 1 : 0);
                }
            }
        }
        return out;
    }

    private boolean allOldInRange(Connection c, TaskPartitions.Partition p) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(ALL_OLD_IN_RANGE_SQL)) {
            ps.setLong(1, options.cutoff());
            ps.setLong(2, p.from());
            ps.setLong(3, p.to());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /**
     * One partition in one transaction. Locks, in the writers' order (application row, then task rows): the range's
     * application rows, so that no write makes one of them young meanwhile; then the partition, so that no task
     * row of theirs is being written; then its rows are counted (per application, for the task_prune record), and
     * the partition is dropped, which holds the whole task table for a moment at the very end.
     */
    private PartitionDrop drop(Connection c, TaskPartitions.Partition p) throws SQLException {
        String table = quote(p.name());
        c.setAutoCommit(false);
        try (var st = c.createStatement()) {
            st.execute(DROP_LOCK_TIMEOUT);
            try (PreparedStatement ps = c.prepareStatement(LOCK_RANGE_SQL)) {
                ps.setLong(1, options.cutoff());
                ps.setLong(2, p.from());
                ps.setLong(3, p.to());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getLong(1) > 0) {
                        c.rollback();
                        return new PartitionDrop(p.name(), 0, 0, false);
                    }
                }
            }
            st.execute("LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE");
            long bytes = size(c, p.name());
            List<Long> apps = new ArrayList<>();
            List<Long> counts = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT app_pk, count(*) FROM " + table + " GROUP BY app_pk")) {
                while (rs.next()) {
                    apps.add(rs.getLong(1));
                    counts.add(rs.getLong(2));
                }
            }
            long rows = counts.stream().mapToLong(Long::longValue).sum();
            if (options.scope() == Scope.TASK_ROWS && !apps.isEmpty()) {
                try (PreparedStatement ps = c.prepareStatement(RECORD_PRUNE_SQL)) {
                    ps.setArray(1, c.createArrayOf("bigint", apps.toArray()));
                    ps.setArray(2, c.createArrayOf("bigint", counts.toArray()));
                    ps.executeUpdate();
                }
            }
            st.execute("DROP TABLE " + table);
            c.commit();
            return new PartitionDrop(p.name(), rows, bytes, true);
        } catch (SQLException e) {
            c.rollback();
            if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                return new PartitionDrop(p.name(), 0, 0, false);
            }
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private static final String LOCK_NOT_AVAILABLE = "55P03";

    private static long size(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_total_relation_size(to_regclass(?))")) {
            ps.setString(1, quote(table));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** PostgreSQL's row estimate, or a count when the table was never analysed. */
    private static long estimatedRows(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT reltuples FROM pg_class WHERE oid = to_regclass(?)")) {
            ps.setString(1, quote(table));
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getDouble(1) >= 0) {
                    return Math.round(rs.getDouble(1));
                }
            }
        }
        return countAll(c, table);
    }

    /** The writers' per-application locks, in app_pk order (several held at once: always taken in one order). */
    private static void lock(Connection c, List<Candidate> group) throws SQLException {
        for (Candidate a : group) {
            SnapshotWriter.lockApplication(c, a.appId(), a.attemptId());
        }
    }

    private static Array pks(Connection c, List<Candidate> group) throws SQLException {
        Long[] pks = new Long[group.size()];
        for (int i = 0; i < pks.length; i++) {
            pks[i] = group.get(i).pk();
        }
        return c.createArrayOf("bigint", pks);
    }

    private static long countOf(Connection c, String table, Array pks) throws SQLException {
        // the table name comes from the catalog (checked plain and quoted), the values are parameters
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM " + quote(table)
                + " WHERE app_pk = ANY (?)")) {
            ps.setArray(1, pks);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static long countAll(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM " + quote(table));
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String quote(String table) {
        if (!PLAIN_IDENTIFIER.matcher(table).matches()) {
            throw new IllegalStateException("unexpected table name in the catalog: " + table);
        }
        return '"' + table + '"';
    }
}
