package io.sparkscope.store;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.core.sql.PlanStages;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.store.Tables.BatchRow;
import io.sparkscope.store.Tables.ConfigEntry;
import io.sparkscope.store.Tables.Ordered;
import io.sparkscope.store.Tables.StageAttemptRow;
import io.sparkscope.store.Tables.StatisticsRow;
import io.sparkscope.store.Tables.TaskRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Flattens a snapshot into one {@code Object[]} per row and table, each row's values taken by the table's own
 * column getters ({@link Table#row}), so they are in {@link Table#columns()} order by construction. Shared by the
 * batched and the row-by-row writer so they write exactly the same data.
 */
final class SnapshotRows {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotRows.class);
    /** The first duplicated task of the process is a warning; later ones would repeat it every flush. */
    private static final AtomicBoolean WARNED_DUPLICATE_TASK = new AtomicBoolean();

    private SnapshotRows() {
    }

    static Map<Table<?>, List<Object[]>> of(AppSnapshot s, List<Finding> findings) {
        return of(s, findings, taskDigests(s), Set.of(), Map.of());
    }

    /** {@link TaskDigest} of each stage attempt's kept tasks, by {@link #stageKey}. */
    static Map<Long, Long> taskDigests(AppSnapshot s) {
        Map<Long, Long> out = new HashMap<>();
        for (StageSummary st : s.stages()) {
            out.put(stageKey(st.stageId(), st.attemptId()), TaskDigest.of(st.listedTasks()));
        }
        return out;
    }

    /**
     * A table's rows made when they are read, not before. Task rows are most of a snapshot's rows (a hundred thousand
     * for a big application): made one by one while COPY sends them, the JVM makes the next rows while PostgreSQL
     * stores the last ones, instead of PostgreSQL waiting for all of them first, and they never all sit in the heap
     * at once. Each read makes the row again, so a writer that reads the rows more than once copies them into a list
     * first ({@link #materialised}).
     */
    static final class RowsOnDemand<R> extends java.util.AbstractList<Object[]> implements java.util.RandomAccess {
        private final Table<R> table;
        private final List<R> sources;

        RowsOnDemand(Table<R> table, List<R> sources) {
            this.table = table;
            this.sources = sources;
        }

        @Override
        public Object[] get(int index) {
            return table.row(sources.get(index));
        }

        @Override
        public int size() {
            return sources.size();
        }
    }

    /** The same rows, each made once and kept: for a writer that reads them more than once. */
    static void materialised(Map<Table<?>, List<Object[]>> rows) {
        rows.replaceAll((table, list) -> list instanceof RowsOnDemand<?> ? new ArrayList<>(list) : list);
    }

    static long stageKey(int stageId, int attemptId) {
        return ((long) stageId << 32) | (attemptId & 0xffffffffL);
    }

    /**
     * Binds stage attempts given by {@link #stageKey} as parameters 1 (stage ids) and 2 (attempt ids), two integer
     * arrays in the same order, for a statement that joins them with {@code unnest(?, ?)}.
     */
    static void bindStageKeys(Connection c, PreparedStatement ps, Collection<Long> keys) throws SQLException {
        Integer[] ids = new Integer[keys.size()];
        Integer[] attempts = new Integer[keys.size()];
        int i = 0;
        for (long key : keys) {
            ids[i] = (int) (key >> 32);
            attempts[i++] = (int) key;
        }
        ps.setArray(1, c.createArrayOf("integer", ids));
        ps.setArray(2, c.createArrayOf("integer", attempts));
    }

    /**
     * @param digests      from {@link #taskDigests}, written into each stage row
     * @param tasksOmitted stage keys whose task rows are left out (the database already holds exactly them)
     */
    static Map<Table<?>, List<Object[]>> of(AppSnapshot s, List<Finding> findings, Map<Long, Long> digests,
                                            Set<Long> tasksOmitted) {
        return of(s, findings, digests, tasksOmitted, Map.of());
    }

    /**
     * @param batchesStoredUpTo per streaming query run, the newest batch id the database already holds with every
     *                          kept batch before it: only newer batches are shipped (a batch never changes once
     *                          reported). A run not in the map ships all its kept batches
     */
    static Map<Table<?>, List<Object[]>> of(AppSnapshot s, List<Finding> findings, Map<Long, Long> digests,
                                            Set<Long> tasksOmitted, Map<String, Long> batchesStoredUpTo) {
        Map<Table<?>, List<Object[]>> rows = new LinkedHashMap<>();
        for (Table<?> t : Tables.ALL) {
            rows.put(t, new ArrayList<>());
        }
        List<Object[]> config = rows.get(Tables.CONFIGURATION);
        config(config, "spark", s.config().sparkProperties());
        config(config, "jvm", s.config().jvmInformation());
        config(config, "system", s.config().systemProperties());
        config(config, "hadoop", s.config().hadoopProperties());
        // Removed executors that left the recorder's window keep the positions they were written with; the listed ones
        // come after them, so that "in the order they appeared" stays an order and no two share a position.
        int executorsGone = s.totals() == null ? 0 : s.totals().executorsNotListed();
        int[] position = {executorsGone};
        ordered(rows.get(Tables.EXECUTOR), Tables.EXECUTOR, s.executors(),
                executorsGone == 0 ? null : e -> position[0]++);
        // A partial snapshot lists some jobs, stages and SQL executions of many: its list positions would not order
        // them among the stored ones, their ids do (and a full snapshot's positions, never above its sorted ids,
        // order with them). The reader breaks ties by id.
        boolean byId = s.partial();
        ordered(rows.get(Tables.JOB), Tables.JOB, s.jobs(), byId ? JobSummary::jobId : null);
        List<TaskRow> tasks = new ArrayList<>();
        int ord = 0;
        for (StageSummary st : s.stages()) {
            long key = stageKey(st.stageId(), st.attemptId());
            int stageOrd = byId ? st.stageId() : ord++;
            rows.get(Tables.STAGE).add(Tables.STAGE.row(new StageAttemptRow(st, stageOrd, digests.get(key))));
            statistics(rows.get(Tables.STAGE_STATISTICS), st);
            if (tasksOmitted.contains(key)) {
                continue;
            }
            int taskOrd = 0;
            for (TaskRecord t : oneRecordPerTask(s, st)) {
                tasks.add(new TaskRow(st, t, taskOrd++));
            }
        }
        rows.put(Tables.TASK, new RowsOnDemand<>(Tables.TASK, tasks));
        ordered(rows.get(Tables.SQL_EXECUTION), Tables.SQL_EXECUTION, s.sqlExecutions(),
                byId ? q -> (int) Math.min(Integer.MAX_VALUE, q.executionId()) : null);
        // Each listed execution comes with its whole plan graph, also in a partial snapshot (the writer then
        // replaces that execution's plan rows and leaves those of executions it does not list).
        for (SqlExecutionSummary q : s.sqlExecutions()) {
            planGraph(rows, q);
        }
        // Runs are ordered by when they started (whole seconds after the application's start), not by their place
        // in the list: a partial snapshot lists only the runs that changed, and they must still sort among the
        // stored ones. The reader breaks ties by start time.
        ordered(rows.get(Tables.STREAMING_QUERY), Tables.STREAMING_QUERY, s.streamingQueries(),
                q -> runOrd(s.startTime(), q.startTime()));
        for (StreamingQuerySummary q : s.streamingQueries()) {
            Long storedUpTo = batchesStoredUpTo.get(q.runId());
            for (StreamingBatch b : q.recentBatches()) {
                if (storedUpTo == null || b.batchId() > storedUpTo) {
                    rows.get(Tables.STREAMING_BATCH).add(Tables.STREAMING_BATCH.row(new BatchRow(q, b)));
                }
            }
        }
        ordered(rows.get(Tables.FINDING), Tables.FINDING, findings);
        return rows;
    }

    /**
     * The execution's plan graph as Spark draws it: its nodes with the stages that ran them, its edges, and every
     * metric a node declares with its aggregate; aggregates of accumulators no node declares under node -1.
     */
    private static void planGraph(Map<Table<?>, List<Object[]>> rows, SqlExecutionSummary q) {
        PlanGraph graph = PlanGraph.of(q.plan());
        PlanStages stages = PlanStages.of(graph, q);
        long id = q.executionId();
        Set<Long> declared = new HashSet<>();
        for (PlanGraph.Node n : graph.nodes()) {
            rows.get(Tables.SQL_PLAN_NODE).add(Tables.SQL_PLAN_NODE.row(
                    new Tables.PlanNodeRow(id, n, stages.stagesOf(n.id()))));
            int ord = 0;
            for (PlanMetric m : n.metrics()) {
                declared.add(m.accumulatorId());
                rows.get(Tables.SQL_NODE_METRIC).add(Tables.SQL_NODE_METRIC.row(
                        new Tables.NodeMetricRow(id, n.id(), ord++, m, q.metrics().get(m.accumulatorId()))));
            }
        }
        int ord = 0;
        for (PlanGraph.Edge e : graph.edges()) {
            rows.get(Tables.SQL_PLAN_EDGE).add(Tables.SQL_PLAN_EDGE.row(new Tables.PlanEdgeRow(id, ord++, e)));
        }
        List<SqlMetricAggregate> undeclared = new ArrayList<>();
        q.metrics().values().forEach(a -> {
            if (!declared.contains(a.accumulatorId())) {
                undeclared.add(a);
            }
        });
        undeclared.sort(java.util.Comparator.comparingLong(SqlMetricAggregate::accumulatorId));
        ord = 0;
        for (SqlMetricAggregate a : undeclared) {
            rows.get(Tables.SQL_NODE_METRIC).add(Tables.SQL_NODE_METRIC.row(new Tables.NodeMetricRow(id, -1, ord++,
                    new PlanMetric(null, a.accumulatorId(), a.metricType()), a)));
        }
    }

    /** Seconds from the application's start to the run's; a run without a start time sorts last. */
    static int runOrd(long appStart, long runStart) {
        if (runStart <= 0) {
            return Integer.MAX_VALUE;
        }
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE - 1, (runStart - Math.max(0, appStart)) / 1000));
    }

    private static void config(List<Object[]> out, String scope, Map<String, String> props) {
        props.forEach((k, v) -> out.add(Tables.CONFIGURATION.row(new ConfigEntry(scope, k, v))));
    }

    private static <T> void ordered(List<Object[]> out, Table<Ordered<T>> table, List<T> values) {
        ordered(out, table, values, null);
    }

    /** @param idOrd the ord of each row when not its position (null: the position) */
    private static <T> void ordered(List<Object[]> out, Table<Ordered<T>> table, List<T> values,
                                    java.util.function.ToIntFunction<T> idOrd) {
        int ord = 0;
        for (T v : values) {
            int o = ord++;
            out.add(table.row(new Ordered<>(v, idOrd == null ? o : idOrd.applyAsInt(v))));
        }
    }

    private static void statistics(List<Object[]> out, StageSummary s) {
        TaskDistributions d = s.taskSummary();
        if (d == null) {
            return;
        }
        for (DistributionMetric m : DistributionMetric.values()) {
            out.add(Tables.STAGE_STATISTICS.row(new StatisticsRow(s, m, d.values(m))));
        }
    }

    /**
     * The stage's kept and running tasks with one record per task id, the last where there are several. A task id is its
     * row's key, so a second record would fail the whole application's write with a duplicate key; a snapshot
     * should never carry one, but a write that keeps the newer record is better than one that keeps nothing.
     */
    static List<TaskRecord> oneRecordPerTask(AppSnapshot app, StageSummary stage) {
        List<TaskRecord> tasks = stage.listedTasks();
        Set<Long> seen = new HashSet<>(tasks.size() * 2);
        boolean duplicates = false;
        for (TaskRecord t : tasks) {
            if (!seen.add(t.taskId())) {
                duplicates = true;
                break;
            }
        }
        if (!duplicates) {
            return tasks;
        }
        Map<Long, Integer> last = new HashMap<>(tasks.size() * 2);
        for (int i = 0; i < tasks.size(); i++) {
            last.put(tasks.get(i).taskId(), i);
        }
        List<TaskRecord> out = new ArrayList<>(last.size());
        for (int i = 0; i < tasks.size(); i++) {
            if (last.get(tasks.get(i).taskId()) == i) {
                out.add(tasks.get(i));
            }
        }
        if (WARNED_DUPLICATE_TASK.compareAndSet(false, true)) {
            LOG.warn("Sparkscope: stage {} of {} holds {} records for {} task ids; storing the last record of each"
                    + " (later occurrences are logged at debug level)", stage.key(), app.appId(), tasks.size(),
                    out.size());
        } else {
            LOG.debug("Sparkscope: stage {} of {} holds {} records for {} task ids; storing the last record of each",
                    stage.key(), app.appId(), tasks.size(), out.size());
        }
        return out;
    }
}
