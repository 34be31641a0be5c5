package io.sparkscope.store.query;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Loads applications for the detail, compare and API views: a fixed number of statements whatever the number of
 * applications or stages (application, configuration, stages, statistics, findings — each {@code app_pk = ANY(?)}),
 * inside one read-only REPEATABLE READ transaction so a concurrent writer never shows half a snapshot. Tasks are
 * never read here: pages show stage totals and stored quantiles.
 */
public final class AppDetailQuery {
    private static final String HEADER_COLUMNS = "app_pk, app_id, attempt_id, name, spark_user, spark_version,"
            + " start_time, end_time, last_event_time, duration_ms, complete, num_jobs, num_failed_jobs, num_stages,"
            + " num_failed_stages, num_tasks, num_failed_tasks, num_executors, total_task_time_ms, total_run_time_ms,"
            + " total_cpu_time_ns, total_gc_time_ms, memory_bytes_spilled, disk_bytes_spilled, shuffle_read_bytes,"
            + " shuffle_write_bytes, input_bytes, output_bytes, driver_gc_time_ms, num_findings, worst_severity";

    private final DataSource dataSource;

    public AppDetailQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** A reference to an application as a user writes it: attemptId null = the attempt-less one, else the newest. */
    public record Ref(String appId, String attemptId) {
        @Override
        public String toString() {
            return attemptId == null ? appId : appId + "/" + attemptId;
        }
    }

    /**
     * Loads the referenced applications in the given order. Missing ones are returned in {@code missing}.
     */
    public record Loaded(List<AppDetail> apps, List<Ref> missing) {
    }

    public Optional<AppDetail> load(Ref ref, long now) throws SQLException {
        Loaded l = load(List.of(ref), now, true);
        return l.apps().isEmpty() ? Optional.empty() : Optional.of(l.apps().get(0));
    }

    public Loaded load(List<Ref> refs, long now, boolean allConfigScopes) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                Loaded l = loadIn(c, refs, now, allConfigScopes);
                c.commit();
                return l;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true); // Hikari resets isolation/read-only; autocommit back for other users
            }
        }
    }

    private Loaded loadIn(Connection c, List<Ref> refs, long now, boolean allScopes) throws SQLException {
        List<AppHeader> headers = new ArrayList<>();
        List<Ref> missing = new ArrayList<>();
        // One statement resolves all refs: an exact attempt, or (attempt omitted) the attempt-less row, else the
        // newest attempt, as Spark's History Server does for /applications/{id}.
        String[] ids = refs.stream().map(Ref::appId).toArray(String[]::new);
        String[] attempts = refs.stream().map(Ref::attemptId).toArray(String[]::new);
        Map<Integer, AppHeader> byPos = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT r.pos, " + prefixed("a.")
                + " FROM unnest(?::text[], ?::text[]) WITH ORDINALITY AS r(app_id, attempt_id, pos)"
                + " CROSS JOIN LATERAL (SELECT * FROM application x WHERE x.app_id = r.app_id"
                + "   AND (r.attempt_id IS NULL OR x.attempt_id = r.attempt_id)"
                + "   ORDER BY (x.attempt_id = '') DESC, x.start_time DESC LIMIT 1) a")) {
            ps.setArray(1, c.createArrayOf("text", ids));
            ps.setArray(2, c.createArrayOf("text", attempts));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    byPos.put(rs.getInt(1), header(rs, 2, now));
                }
            }
        }
        for (int i = 0; i < refs.size(); i++) {
            AppHeader h = byPos.get(i + 1);
            if (h == null) {
                missing.add(refs.get(i));
            } else {
                headers.add(h);
            }
        }
        List<Long> pks = headers.stream().map(AppHeader::pk).distinct().toList();
        if (pks.isEmpty()) {
            return new Loaded(List.of(), missing);
        }
        Map<Long, Map<String, Map<String, String>>> config = config(c, pks, allScopes);
        Map<Long, List<StageRow>> stages = stages(c, pks);
        var findings = Sql.findings(c, pks);
        List<AppDetail> out = new ArrayList<>();
        for (AppHeader h : headers) {
            out.add(new AppDetail(h, config.getOrDefault(h.pk(), Map.of()), stages.getOrDefault(h.pk(), List.of()),
                    findings.getOrDefault(h.pk(), List.of())));
        }
        return new Loaded(out, missing);
    }

    private static String prefixed(String p) {
        StringBuilder sb = new StringBuilder();
        for (String col : HEADER_COLUMNS.split(",\\s*")) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(p).append(col);
        }
        return sb.toString();
    }

    static AppHeader header(ResultSet rs, int i, long now) throws SQLException {
        String attempt = rs.getString(i + 2);
        boolean complete = rs.getBoolean(i + 10);
        long lastEvent = rs.getLong(i + 8);
        return new AppHeader(rs.getLong(i), rs.getString(i + 1), attempt.isEmpty() ? null : attempt,
                rs.getString(i + 3), rs.getString(i + 4), rs.getString(i + 5), rs.getLong(i + 6), rs.getLong(i + 7),
                lastEvent, rs.getLong(i + 9), complete, AppFilter.statusOf(complete, lastEvent, now),
                rs.getInt(i + 11), rs.getInt(i + 12), rs.getInt(i + 13), rs.getInt(i + 14), rs.getLong(i + 15),
                rs.getLong(i + 16), rs.getInt(i + 17), rs.getLong(i + 18), rs.getLong(i + 19), rs.getLong(i + 20),
                rs.getLong(i + 21), rs.getLong(i + 22), rs.getLong(i + 23), rs.getLong(i + 24), rs.getLong(i + 25),
                rs.getLong(i + 26), rs.getLong(i + 27), rs.getLong(i + 28), rs.getInt(i + 29), rs.getString(i + 30));
    }

    private static Map<Long, Map<String, Map<String, String>>> config(Connection c, List<Long> pks, boolean allScopes)
            throws SQLException {
        Map<Long, Map<String, Map<String, String>>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, scope, key, value FROM configuration"
                + " WHERE app_pk = ANY(?)" + (allScopes ? "" : " AND scope = 'spark'"))) {
            ps.setArray(1, Sql.pks(c, pks));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getLong(1), k -> new LinkedHashMap<>())
                            .computeIfAbsent(rs.getString(2), k -> new TreeMap<>())
                            .put(rs.getString(3), rs.getString(4));
                }
            }
        }
        return out;
    }

    private record StageKey(long pk, int stageId, int attemptId) {
    }

    private static Long nullableLong(ResultSet rs, int i) throws SQLException {
        long v = rs.getLong(i);
        return rs.wasNull() ? null : v;
    }

    private static Map<Long, List<StageRow>> stages(Connection c, List<Long> pks) throws SQLException {
        Map<StageKey, Map<String, double[]>> stats = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, stage_id, stage_attempt_id, metric, vals"
                + " FROM stage_statistics WHERE app_pk = ANY(?)")) {
            ps.setArray(1, Sql.pks(c, pks));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    stats.computeIfAbsent(new StageKey(rs.getLong(1), rs.getInt(2), rs.getInt(3)),
                            k -> new HashMap<>()).put(rs.getString(4), Sql.doubles(rs.getArray(5)));
                }
            }
        }
        Map<Long, List<StageRow>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, stage_id, attempt_id, ord, name, status,"
                + " num_tasks, num_complete_tasks, num_failed_tasks, num_killed_tasks, submission_time,"
                + " completion_time, duration_ms, failure_reason, job_ids, executor_run_time_ms, executor_cpu_time_ns,"
                + " jvm_gc_time_ms, memory_bytes_spilled, disk_bytes_spilled, shuffle_read_bytes, shuffle_write_bytes,"
                + " input_bytes, output_bytes, totals::text, summary_task_count, summary_quantiles,"
                + " scheduler_delay_ms, getting_result_ms, task_detail,"
                + " COALESCE((totals->>'executorDeserializeTime')::bigint, 0),"
                + " COALESCE((totals->>'resultSerializationTime')::bigint, 0),"
                + " COALESCE((totals->>'shuffleFetchWaitTime')::bigint, 0),"
                + " COALESCE((totals->>'shuffleWriteTime')::bigint, 0)"
                + " FROM stage_attempt WHERE app_pk = ANY(?) ORDER BY app_pk, ord")) {
            ps.setArray(1, Sql.pks(c, pks));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long pk = rs.getLong(1);
                    StageKey key = new StageKey(pk, rs.getInt(2), rs.getInt(3));
                    out.computeIfAbsent(pk, k -> new ArrayList<>()).add(new StageRow(key.stageId(), key.attemptId(),
                            rs.getInt(4), rs.getString(5), rs.getString(6), rs.getInt(7), rs.getInt(8), rs.getInt(9),
                            rs.getInt(10), rs.getLong(11), rs.getLong(12), rs.getLong(13), rs.getString(14),
                            Sql.ints(rs.getArray(15)), rs.getLong(16), rs.getLong(17), rs.getLong(18), rs.getLong(19),
                            rs.getLong(20), rs.getLong(21), rs.getLong(22), rs.getLong(23), rs.getLong(24),
                            rs.getString(25), rs.getLong(26), Sql.doubles(rs.getArray(27)),
                            stats.getOrDefault(key, Map.of()),
                            new StageRow.Times(nullableLong(rs, 28), nullableLong(rs, 29), rs.getLong(31),
                                    rs.getLong(32), rs.getLong(33), rs.getLong(34)),
                            rs.getString(30)));
                }
            }
        }
        return out;
    }
}
