package io.sparkscope.store;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.RunTotals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Collectors;

import static io.sparkscope.store.Column.bigint;
import static io.sparkscope.store.Column.bool;
import static io.sparkscope.store.Column.integer;
import static io.sparkscope.store.Column.jsonb;
import static io.sparkscope.store.Column.text;

/** The {@code application} row: the natural key, the model's fields and the aggregates the search page shows. */
final class ApplicationRow {
    private static final List<Column> VALUES = List.of(
            text("name"), text("spark_user"), text("spark_version"), bigint("start_time"), bigint("end_time"),
            bigint("last_event_time"), bigint("duration_ms"), text("status"), bool("complete"), integer("num_jobs"),
            integer("num_failed_jobs"), integer("num_stages"), integer("num_failed_stages"), bigint("num_tasks"),
            bigint("num_failed_tasks"), integer("num_executors"), bigint("total_task_time_ms"),
            bigint("total_run_time_ms"), bigint("total_cpu_time_ns"), bigint("total_gc_time_ms"),
            bigint("memory_bytes_spilled"), bigint("disk_bytes_spilled"), bigint("shuffle_read_bytes"),
            bigint("shuffle_write_bytes"), bigint("input_bytes"), bigint("output_bytes"), bigint("driver_gc_time_ms"),
            bigint("driver_max_memory"), bigint("event_count"), jsonb("unknown_event_types"), integer("num_findings"),
            text("worst_severity"), jsonb("banners"));

    /** Upsert on (app_id, attempt_id); updated_at moves only when something changed (no-op rewrites stay no-ops). */
    static final String UPSERT_SQL = "INSERT INTO application AS t (app_id, attempt_id, "
            + VALUES.stream().map(Column::name).collect(Collectors.joining(", ")) + ") VALUES (?, ?, "
            + VALUES.stream().map(c -> c.type().marker()).collect(Collectors.joining(", ")) + ")"
            + " ON CONFLICT (app_id, attempt_id) DO UPDATE SET "
            + VALUES.stream().map(c -> c.name() + " = EXCLUDED." + c.name()).collect(Collectors.joining(", "))
            + ", updated_at = now() WHERE ("
            + VALUES.stream().map(c -> "t." + c.name()).collect(Collectors.joining(", ")) + ") IS DISTINCT FROM ("
            + VALUES.stream().map(c -> "EXCLUDED." + c.name()).collect(Collectors.joining(", ")) + ")"
            + " RETURNING app_pk";

    private ApplicationRow() {
    }

    /** '' stands for "no attempt id" so the unique key also covers applications without attempts. */
    static String attemptKey(String attemptId) {
        return attemptId == null ? "" : attemptId;
    }

    /** Upserts the row; returns app_pk, from RETURNING or, when the update was a no-op, from {@code knownPk}. */
    static long upsert(Connection c, AppSnapshot s, List<StoredFinding> findings, OptionalLong knownPk)
            throws SQLException {
        Object[] values = values(s, findings);
        try (PreparedStatement ps = c.prepareStatement(UPSERT_SQL)) {
            ps.setString(1, s.appId());
            ps.setString(2, attemptKey(s.attemptId()));
            for (int i = 0; i < VALUES.size(); i++) {
                VALUES.get(i).bind(c, ps, i + 3, values[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return rs.getLong(1);
                }
            }
        }
        if (knownPk.isPresent()) {
            return knownPk.getAsLong();
        }
        return find(c, s.appId(), s.attemptId()).orElseThrow(
                () -> new SQLException("application " + s.appId() + " vanished during its upsert")).pk();
    }

    record Existing(long pk, long eventCount, boolean complete) {
    }

    static java.util.Optional<Existing> find(Connection c, String appId, String attemptId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT app_pk, event_count, complete FROM application WHERE app_id = ? AND attempt_id = ?")) {
            ps.setString(1, appId);
            ps.setString(2, attemptKey(attemptId));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? java.util.Optional.of(new Existing(rs.getLong(1), rs.getLong(2), rs.getBoolean(3)))
                        : java.util.Optional.empty();
            }
        }
    }

    private static Object[] values(AppSnapshot s, List<StoredFinding> findings) {
        // Whole-run figures from the run's totals: a live listener's snapshot lists only what changed since its
        // last write (and keeps only recent entities), so sums over its lists would count a part of the run.
        RunTotals run = s.totals();
        long cpu = run.metrics().get(TaskMetric.EXECUTOR_CPU_TIME);
        long gc = run.metrics().get(TaskMetric.JVM_GC_TIME);
        long mem = run.metrics().get(TaskMetric.MEMORY_BYTES_SPILLED);
        long disk = run.metrics().get(TaskMetric.DISK_BYTES_SPILLED);
        long shRead = run.metrics().shuffleReadBytes();
        long shWrite = run.metrics().get(TaskMetric.SHUFFLE_BYTES_WRITTEN);
        long in = run.metrics().get(TaskMetric.INPUT_BYTES);
        long out = run.metrics().get(TaskMetric.OUTPUT_BYTES);
        long runTime = run.metrics().get(TaskMetric.EXECUTOR_RUN_TIME);
        int failedStages = run.failedStages();
        long taskTime = 0;
        int executors = 0;
        for (ExecutorSummary e : s.executors()) {
            taskTime += e.totalDuration();
            executors += e.isDriver() ? 0 : 1;
        }
        if (executors == 0) {
            executors = s.executors().size(); // local mode: the driver is the only executor
        }
        int failedJobs = run.failedJobs();
        return new Object[]{s.appName(), s.sparkUser(), s.sparkVersion(), s.startTime(), s.endTime(),
                s.lastEventTime(), s.durationMs(), s.status(), s.complete(), run.jobs(), failedJobs,
                run.stages(), failedStages, s.totalTasks(), s.failedTasks(), executors, taskTime, runTime, cpu, gc,
                mem, disk, shRead, shWrite, in, out, s.driverGcTimeMs(), s.driverMaxMemory(), s.eventCount(),
                Json.write(s.unknownEventTypes()), findings.size(), StoredFinding.worst(findings), banners(findings)};
    }

    /** The search page's banners (V7): [[id, heuristic, severity, title, message], …] in finding order, or null. */
    static String banners(List<StoredFinding> findings) {
        if (findings.isEmpty()) {
            return null;
        }
        List<List<String>> rows = new java.util.ArrayList<>(findings.size());
        for (StoredFinding f : findings) {
            rows.add(java.util.Arrays.asList(f.id(), f.heuristic(), f.severity(), f.title(), f.message()));
        }
        return Json.write(rows);
    }
}
