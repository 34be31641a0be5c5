package io.sparkscope.store;

import io.sparkscope.core.analysis.JobKey;
import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.Lineage;
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
import static io.sparkscope.store.Column.float8;
import static io.sparkscope.store.Column.integer;
import static io.sparkscope.store.Column.jsonb;
import static io.sparkscope.store.Column.text;
import static io.sparkscope.store.Column.textArray;

/** The {@code application} row: the natural key, the model's fields and the aggregates the search page shows. */
final class ApplicationRow {
    /**
     * What the row is made of: the snapshot, the sums over its stages and executors, its findings, and its efficiency
     * figures (null when they could not be computed: the row then says "not computed").
     */
    record Source(AppSnapshot app, Sums sums, List<Finding> findings, Efficiency efficiency) {
    }

    /** Sums over the snapshot's stages, executors and jobs, computed once per write. */
    record Sums(long runTime, long cpuTime, long gcTime, long memorySpilled, long diskSpilled, long shuffleRead,
                long shuffleWrite, long input, long output, int failedStages, long taskTime, int executors,
                int failedJobs) {
    }

    /**
     * The natural key then every value column; app_pk, updated_at and completed_at are the database's. Only the
     * column list is used: the application row is no child table, it has its own upsert ({@link #UPSERT_SQL}).
     */
    static final Table<Source> TABLE = Table.<Source>named("application")
            .keys(Source::app,
                    text("app_id", AppSnapshot::appId),
                    text("attempt_id", a -> attemptKey(a.attemptId())))
            .values(Source::app,
                    text("name", AppSnapshot::appName),
                    text("spark_user", AppSnapshot::sparkUser),
                    text("spark_version", AppSnapshot::sparkVersion),
                    bigint("start_time", AppSnapshot::startTime),
                    bigint("end_time", AppSnapshot::endTime),
                    bigint("last_event_time", AppSnapshot::lastEventTime),
                    bigint("duration_ms", AppSnapshot::durationMs),
                    text("status", AppSnapshot::status),
                    bool("complete", AppSnapshot::complete),
                    integer("num_jobs", a -> a.totals().jobs()))
            .values(Source::sums, integer("num_failed_jobs", Sums::failedJobs))
            .values(Source::app, integer("num_stages", a -> a.totals().stages()))
            .values(Source::sums, integer("num_failed_stages", Sums::failedStages))
            .values(Source::app,
                    bigint("num_tasks", AppSnapshot::totalTasks),
                    bigint("num_failed_tasks", AppSnapshot::failedTasks))
            .values(Source::sums,
                    integer("num_executors", Sums::executors),
                    bigint("total_task_time_ms", Sums::taskTime),
                    bigint("total_run_time_ms", Sums::runTime),
                    bigint("total_cpu_time_ns", Sums::cpuTime),
                    bigint("total_gc_time_ms", Sums::gcTime),
                    bigint("memory_bytes_spilled", Sums::memorySpilled),
                    bigint("disk_bytes_spilled", Sums::diskSpilled),
                    bigint("shuffle_read_bytes", Sums::shuffleRead),
                    bigint("shuffle_write_bytes", Sums::shuffleWrite),
                    bigint("input_bytes", Sums::input),
                    bigint("output_bytes", Sums::output))
            .values(Source::app,
                    bigint("driver_gc_time_ms", AppSnapshot::driverGcTimeMs),
                    bigint("driver_max_memory", AppSnapshot::driverMaxMemory),
                    bigint("event_count", AppSnapshot::eventCount),
                    jsonb("unknown_event_types", a -> Json.write(a.unknownEventTypes())),
                    // V8: what groups runs of one job (null: an interactive session, compared with nothing)
                    text("job_key", a -> JobKey.of(a).value()))
            .values(Source::findings,
                    integer("num_findings", List::size),
                    text("worst_severity", ApplicationRow::worstSeverity),
                    text("banners", ApplicationRow::banners), // JSON text (V20: a text column)
                    // V20: the search page's heuristic filter
                    textArray("heuristics", ApplicationRow::heuristics))
            // V9: what fixing its findings would save, so search can rank applications by it
            .values(bigint("saving_ms", s -> savingMs(s.app(), s.findings())))
            // V17: what the executors held against what they used (resources; pages price them)
            .values(Source::efficiency,
                    float8("core_hours_allocated", e -> e == null ? null : e.coreHoursAllocated()),
                    float8("core_hours_used", e -> e == null ? null : e.coreHoursUsed()),
                    float8("core_hours_wasted", e -> e == null ? null : e.coreHoursIdle()),
                    float8("core_hours_driver_alone", e -> e == null ? null : e.coreHoursDriverAlone()),
                    float8("gb_hours_allocated", e -> e == null ? null : e.gbHoursAllocated()),
                    float8("gb_hours_peak_used", e -> e == null || !e.memoryMeasured() ? null : e.gbHoursPeakUsed()),
                    float8("gb_hours_wasted", e -> e == null || !e.memoryMeasured() ? null : e.gbHoursWasted()),
                    float8("gb_hours_driver_alone", e -> e == null ? null : e.gbHoursDriverAlone()),
                    bigint("driver_alone_ms", e -> e == null ? null : e.driverAloneMs()))
            // V25: the scheduler's job and run, for the pages' links and the search's filters
            .values(s -> Lineage.of(s.app().config().sparkProperties()),
                    text("lineage_namespace", Lineage::namespace),
                    text("lineage_job", Lineage::job),
                    text("lineage_run_id", Lineage::runId),
                    text("lineage_root_namespace", Lineage::rootNamespace),
                    text("lineage_root_job", Lineage::rootJob),
                    text("lineage_root_run_id", Lineage::rootRunId),
                    text("airflow_dag_id", Lineage::dagId),
                    text("airflow_task_id", Lineage::taskId))
            .build();

    private static final List<Column<Source>> VALUES = TABLE.values;

    /** Upsert on (app_id, attempt_id); updated_at moves only when something changed (no-op rewrites stay no-ops). */
    static final String UPSERT_SQL = "INSERT INTO application AS t ("
            + TABLE.columns().stream().map(Column::name).collect(Collectors.joining(", ")) + ") VALUES ("
            + TABLE.columns().stream().map(c -> c.type().marker()).collect(Collectors.joining(", ")) + ")"
            + " ON CONFLICT (app_id, attempt_id) DO UPDATE SET "
            + VALUES.stream().map(c -> c.name() + " = EXCLUDED." + c.name()).collect(Collectors.joining(", "))
            + ", updated_at = now() WHERE ("
            + VALUES.stream().map(c -> "t." + c.name()).collect(Collectors.joining(", ")) + ") IS DISTINCT FROM ("
            + VALUES.stream().map(c -> "EXCLUDED." + c.name()).collect(Collectors.joining(", ")) + ")"
            + " RETURNING app_pk, " + Existing.VERSION;

    private ApplicationRow() {
    }

    /** '' stands for "no attempt id" so the unique key also covers applications without attempts. */
    static String attemptKey(String attemptId) {
        return attemptId == null ? "" : attemptId;
    }

    /** Upserts the row; returns app_pk, from RETURNING or, when the update was a no-op, from {@code knownPk}. */
    static long upsert(Connection c, AppSnapshot s, List<Finding> findings, OptionalLong knownPk)
            throws SQLException {
        return upsert(c, s, findings, knownPk, EfficiencyFigures.of(c, knownPk, s)).pk();
    }

    /**
     * The row's key and version after an upsert: version is the row's {@link Existing#version} when the upsert
     * rewrote it, -1 when the stored row already held these values (and so kept its version).
     */
    record Upserted(long pk, long version) {
    }

    /** Upserts the row with the given efficiency figures (null: not computed). */
    static Upserted upsert(Connection c, AppSnapshot s, List<Finding> findings, OptionalLong knownPk,
                           Efficiency efficiency) throws SQLException {
        List<Column<Source>> cols = TABLE.columns();
        Object[] values = TABLE.row(new Source(s, sums(s), findings, efficiency));
        try (PreparedStatement ps = c.prepareStatement(UPSERT_SQL)) {
            for (int i = 0; i < cols.size(); i++) {
                cols.get(i).bind(c, ps, i + 1, values[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return new Upserted(rs.getLong(1), rs.getLong(2));
                }
            }
        }
        if (knownPk.isPresent()) {
            return new Upserted(knownPk.getAsLong(), -1);
        }
        return new Upserted(find(c, s.appId(), s.attemptId()).orElseThrow(
                () -> new SQLException("application " + s.appId() + " vanished during its upsert")).pk(), -1);
    }

    /**
     * The stored row: key, what the stale-snapshot check compares, and its version: the id of the transaction that
     * last wrote it ({@code xmin}), which changes with every rewrite of the row by anyone.
     */
    /** @param startTime the stored application's start (epoch ms; 0 or less when unknown) */
    record Existing(long pk, long eventCount, boolean complete, long version, long startTime) {
        static final String VERSION = "CAST(CAST(xmin AS text) AS bigint)";
    }

    static java.util.Optional<Existing> find(Connection c, String appId, String attemptId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT app_pk, event_count, complete, " + Existing.VERSION
                + ", start_time FROM application WHERE app_id = ? AND attempt_id = ?")) {
            ps.setString(1, appId);
            ps.setString(2, attemptKey(attemptId));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? java.util.Optional.of(new Existing(rs.getLong(1), rs.getLong(2), rs.getBoolean(3),
                        rs.getLong(4), rs.getLong(5)))
                        : java.util.Optional.empty();
            }
        }
    }

    /**
     * Whole-run figures from the run's totals ({@link RunTotals}): a live listener's snapshot lists only what changed
     * since its last write (and keeps only recent entities), so sums over its lists would count a part of the run.
     * Executors are listed whole but for removed ones that left the recorder's window, which the totals count.
     */
    static Sums sums(AppSnapshot s) {
        RunTotals whole = s.totals();
        long run = whole.metrics().get(TaskMetric.EXECUTOR_RUN_TIME);
        long cpu = whole.metrics().get(TaskMetric.EXECUTOR_CPU_TIME);
        long gc = whole.metrics().get(TaskMetric.JVM_GC_TIME);
        long mem = whole.metrics().get(TaskMetric.MEMORY_BYTES_SPILLED);
        long disk = whole.metrics().get(TaskMetric.DISK_BYTES_SPILLED);
        long shRead = whole.metrics().shuffleReadBytes();
        long shWrite = whole.metrics().get(TaskMetric.SHUFFLE_BYTES_WRITTEN);
        long in = whole.metrics().get(TaskMetric.INPUT_BYTES);
        long out = whole.metrics().get(TaskMetric.OUTPUT_BYTES);
        int failedStages = whole.failedStages();
        long taskTime = 0;
        int executors = 0;
        for (ExecutorSummary e : s.executors()) {
            taskTime += e.totalDuration();
            executors += e.isDriver() ? 0 : 1;
        }
        if (executors == 0) {
            executors = s.executors().size(); // local mode: the driver is the only executor
        }
        executors += whole.executorsNotListed();
        taskTime += whole.executorTaskMsNotListed();
        int failedJobs = whole.failedJobs();
        return new Sums(run, cpu, gc, mem, disk, shRead, shWrite, in, out, failedStages, taskTime, executors,
                failedJobs);
    }

    /** HIGH over LOW over none (null: green), for the search filter and the panel colour. */
    static String worstSeverity(List<Finding> findings) {
        Severity worst = Severity.NONE;
        for (Finding f : findings) {
            worst = Severity.max(worst, f.severity());
        }
        return worst == Severity.NONE ? null : worst.name();
    }

    /**
     * The wall time fixing this application's findings could save: the root causes' estimates summed (a knock-on's
     * saving is already in its cause's), at most the application's duration when that is known.
     */
    static long savingMs(AppSnapshot app, List<Finding> findings) {
        long sum = 0;
        for (Finding f : findings) {
            if (f.causedBy() == null) {
                sum += Math.max(0, f.impact().wallMs());
            }
        }
        return app.durationMs() > 0 ? Math.min(sum, app.durationMs()) : sum;
    }

    /** The distinct heuristics of the findings, sorted (V20); empty without findings. */
    static List<String> heuristics(List<Finding> findings) {
        return findings.stream().map(Finding::heuristic).distinct().sorted().toList();
    }

    /** The search page's banners (V7): [[id, heuristic, severity, title, message], …] in finding order, or null. */
    static String banners(List<Finding> findings) {
        if (findings.isEmpty()) {
            return null;
        }
        List<List<String>> rows = new java.util.ArrayList<>(findings.size());
        for (Finding f : findings) {
            rows.add(java.util.Arrays.asList(f.id(), f.heuristic(), f.severity().name(), f.title(), f.message()));
        }
        return Json.write(rows);
    }
}
