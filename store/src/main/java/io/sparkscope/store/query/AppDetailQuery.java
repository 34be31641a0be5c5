package io.sparkscope.store.query;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.store.FindingRows;
import io.sparkscope.store.ReadTransaction;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
            + " shuffle_write_bytes, input_bytes, output_bytes, driver_gc_time_ms, num_findings, worst_severity, job_key, "
            + AppEfficiency.COLUMNS;

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

    /**
     * What besides the application row a view shows; the parts it leaves out are not read (an {@link AppDetail}
     * then holds them empty). The stages API, for one, needs neither configuration, findings nor SQL operators.
     */
    public enum Part {
        /** Configuration of every scope ({@link #SPARK_CONFIG} alone: only the {@code spark} scope). */
        CONFIG,
        SPARK_CONFIG,
        STAGES,
        FINDINGS,
        STAGE_OPERATORS;

        /** Everything: the application page and the detail API. */
        public static final Set<Part> ALL = Collections.unmodifiableSet(EnumSet.of(CONFIG, STAGES, FINDINGS,
                STAGE_OPERATORS));
    }

    public Optional<AppDetail> load(Ref ref, long now) throws SQLException {
        return load(ref, now, Part.ALL);
    }

    /** One application with only the given parts read. */
    public Optional<AppDetail> load(Ref ref, long now, Set<Part> parts) throws SQLException {
        Loaded l = load(List.of(ref), now, parts);
        return l.apps().isEmpty() ? Optional.empty() : Optional.of(l.apps().get(0));
    }

    public Loaded load(List<Ref> refs, long now, boolean allConfigScopes) throws SQLException {
        return load(refs, now, allConfigScopes ? Part.ALL
                : EnumSet.of(Part.SPARK_CONFIG, Part.STAGES, Part.FINDINGS, Part.STAGE_OPERATORS));
    }

    public Loaded load(List<Ref> refs, long now, Set<Part> parts) throws SQLException {
        return ReadTransaction.run(dataSource, c -> loadIn(c, refs, now, parts));
    }

    private Loaded loadIn(Connection c, List<Ref> refs, long now, Set<Part> parts) throws SQLException {
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
                + "   ORDER BY " + AppRefs.newestFirst("x.") + " LIMIT 1) a")) {
            ps.setArray(1, c.createArrayOf("text", ids));
            ps.setArray(2, c.createArrayOf("text", attempts));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    byPos.put(rs.getInt("pos"), header(rs, now));
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
        boolean anyConfig = parts.contains(Part.CONFIG) || parts.contains(Part.SPARK_CONFIG);
        Map<Long, Map<String, Map<String, String>>> config = anyConfig
                ? config(c, pks, parts.contains(Part.CONFIG)) : Map.of();
        Map<Long, List<StageRow>> stages = parts.contains(Part.STAGES) ? stages(c, pks) : Map.of();
        Map<Long, List<Finding>> findings = parts.contains(Part.FINDINGS) ? FindingRows.byApp(c, pks) : Map.of();
        Map<Long, Map<Integer, List<SqlQuery.StageOperator>>> operators = parts.contains(Part.STAGE_OPERATORS)
                ? SqlQuery.operatorsByStage(c, pks) : Map.of();
        List<AppDetail> out = new ArrayList<>();
        for (AppHeader h : headers) {
            out.add(new AppDetail(h, config.getOrDefault(h.pk(), Map.of()), stages.getOrDefault(h.pk(), List.of()),
                    findings.getOrDefault(h.pk(), List.of()), operators.getOrDefault(h.pk(), Map.of())));
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

    /** The header on the result set's current row, by column name (the columns of {@link #HEADER_COLUMNS}). */
    static AppHeader header(ResultSet rs, long now) throws SQLException {
        String attempt = rs.getString("attempt_id");
        boolean complete = rs.getBoolean("complete");
        long lastEvent = rs.getLong("last_event_time");
        return new AppHeader(rs.getLong("app_pk"), rs.getString("app_id"), attempt.isEmpty() ? null : attempt,
                rs.getString("name"), rs.getString("spark_user"), rs.getString("spark_version"),
                rs.getLong("start_time"), rs.getLong("end_time"), lastEvent, rs.getLong("duration_ms"), complete,
                AppFilter.statusOf(complete, lastEvent, now), rs.getInt("num_jobs"), rs.getInt("num_failed_jobs"),
                rs.getInt("num_stages"), rs.getInt("num_failed_stages"), rs.getLong("num_tasks"),
                rs.getLong("num_failed_tasks"), rs.getInt("num_executors"), rs.getLong("total_task_time_ms"),
                rs.getLong("total_run_time_ms"), rs.getLong("total_cpu_time_ns"), rs.getLong("total_gc_time_ms"),
                rs.getLong("memory_bytes_spilled"), rs.getLong("disk_bytes_spilled"),
                rs.getLong("shuffle_read_bytes"), rs.getLong("shuffle_write_bytes"), rs.getLong("input_bytes"),
                rs.getLong("output_bytes"), rs.getLong("driver_gc_time_ms"), rs.getInt("num_findings"),
                rs.getString("worst_severity"), rs.getString("job_key"), AppEfficiency.read(rs));
    }

    private static Map<Long, Map<String, Map<String, String>>> config(Connection c, List<Long> pks, boolean allScopes)
            throws SQLException {
        Map<Long, Map<String, Map<String, String>>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, scope, key, value FROM configuration"
                + " WHERE app_pk = ANY(?)" + (allScopes ? "" : " AND scope = 'spark'"))) {
            ps.setArray(1, Sql.pks(c, pks));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getLong("app_pk"), k -> new LinkedHashMap<>())
                            .computeIfAbsent(rs.getString("scope"), k -> new TreeMap<>())
                            .put(rs.getString("key"), rs.getString("value"));
                }
            }
        }
        return out;
    }

    private record StageKey(long pk, int stageId, int attemptId) {
    }

    private static Long nullableLong(ResultSet rs, String column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    private static Map<Long, List<StageRow>> stages(Connection c, List<Long> pks) throws SQLException {
        return stages(c, pks, null);
    }

    /** Every attempt of one stage of one application, in recorded order, with its quantiles (the stage page). */
    static List<StageRow> attemptsOf(Connection c, long pk, int stageId) throws SQLException {
        return stages(c, List.of(pk), stageId).getOrDefault(pk, List.of());
    }

    /** @param stageId only this stage's attempts, or null for all */
    private static Map<Long, List<StageRow>> stages(Connection c, List<Long> pks, Integer stageId)
            throws SQLException {
        Map<StageKey, Map<String, double[]>> stats = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, stage_id, stage_attempt_id, metric, vals"
                + " FROM stage_statistics WHERE app_pk = ANY(?)" + (stageId == null ? "" : " AND stage_id = ?"))) {
            ps.setArray(1, Sql.pks(c, pks));
            if (stageId != null) {
                ps.setInt(2, stageId);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    stats.computeIfAbsent(new StageKey(rs.getLong("app_pk"), rs.getInt("stage_id"),
                            rs.getInt("stage_attempt_id")), k -> new HashMap<>())
                            .put(rs.getString("metric"), Sql.doubles(rs.getArray("vals")));
                }
            }
        }
        Map<Long, List<StageRow>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, stage_id, attempt_id, ord, name, status,"
                + " num_tasks, num_complete_tasks, num_failed_tasks, num_killed_tasks, submission_time,"
                + " completion_time, duration_ms, failure_reason, job_ids, executor_run_time_ms, executor_cpu_time_ns,"
                + " jvm_gc_time_ms, memory_bytes_spilled, disk_bytes_spilled, shuffle_read_bytes, shuffle_write_bytes,"
                + " input_bytes, output_bytes, totals::text AS totals, summary_task_count, summary_quantiles,"
                + " scheduler_delay_ms, getting_result_ms, task_detail,"
                + " COALESCE((totals->>'executorDeserializeTime')::bigint, 0) AS deserialize_ms,"
                + " COALESCE((totals->>'resultSerializationTime')::bigint, 0) AS result_serialization_ms,"
                + " COALESCE((totals->>'shuffleFetchWaitTime')::bigint, 0) AS shuffle_fetch_wait_ms,"
                + " COALESCE((totals->>'shuffleWriteTime')::bigint, 0) AS shuffle_write_ns"
                + StageNameColumns.COLUMNS
                + " FROM stage_attempt s" + StageNameColumns.JOIN + " WHERE s.app_pk = ANY(?)"
                + (stageId == null ? "" : " AND s.stage_id = ?") + " ORDER BY s.app_pk, s.ord")) {
            ps.setArray(1, Sql.pks(c, pks));
            if (stageId != null) {
                ps.setInt(2, stageId);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long pk = rs.getLong("app_pk");
                    StageKey key = new StageKey(pk, rs.getInt("stage_id"), rs.getInt("attempt_id"));
                    out.computeIfAbsent(pk, k -> new ArrayList<>()).add(new StageRow(key.stageId(), key.attemptId(),
                            rs.getInt("ord"), StageNameColumns.readable(rs), rs.getString("status"),
                            rs.getInt("num_tasks"),
                            rs.getInt("num_complete_tasks"), rs.getInt("num_failed_tasks"),
                            rs.getInt("num_killed_tasks"), rs.getLong("submission_time"),
                            rs.getLong("completion_time"), rs.getLong("duration_ms"), rs.getString("failure_reason"),
                            Sql.ints(rs.getArray("job_ids")), rs.getLong("executor_run_time_ms"),
                            rs.getLong("executor_cpu_time_ns"), rs.getLong("jvm_gc_time_ms"),
                            rs.getLong("memory_bytes_spilled"), rs.getLong("disk_bytes_spilled"),
                            rs.getLong("shuffle_read_bytes"), rs.getLong("shuffle_write_bytes"),
                            rs.getLong("input_bytes"), rs.getLong("output_bytes"), rs.getString("totals"),
                            rs.getLong("summary_task_count"), Sql.doubles(rs.getArray("summary_quantiles")),
                            stats.getOrDefault(key, Map.of()),
                            new StageRow.Times(nullableLong(rs, "scheduler_delay_ms"),
                                    nullableLong(rs, "getting_result_ms"), rs.getLong("deserialize_ms"),
                                    rs.getLong("result_serialization_ms"), rs.getLong("shuffle_fetch_wait_ms"),
                                    rs.getLong("shuffle_write_ns")),
                            rs.getString("task_detail")));
                }
            }
        }
        return out;
    }
}
