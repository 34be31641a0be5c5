package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent.AccumUpdates;
import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.sql.ScalaSetOrder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Mutable state of one SQL execution, including what Spark's {@code SQLAppStatusListener} keeps to aggregate its SQL
 * metrics: the metric types its plans declared, per stage of its jobs the task values ({@link SqlStageMetrics}), and
 * the driver's own updates. At the execution's end they are reduced to {@link SqlMetricAggregate}s, as Spark does
 * then, and released: an ended execution holds only its aggregates, and everything goes when the execution does.
 *
 * <p>Memory while it runs: at most {@link #EXACT_VALUES} task values kept one by one (8 bytes and a bit each), plus
 * a histogram (≤ 9 KB) per metric of each stage beyond that, plus the values of task indices not yet succeeded.
 */
final class LiveSqlExecution extends LiveEntity {
    /** Task values (all metrics, all stages) an execution keeps one by one; beyond, stages keep histograms. */
    static final long EXACT_VALUES = 1_000_000;
    static final int MAX_DRIVER_UPDATES = 100_000;

    final long executionId;
    String description;
    long startTime = -1;
    long endTime = -1;
    String errorMessage;
    /** Set by its first end: a repeated one changes nothing. */
    boolean ended;
    String physicalPlanDescription;
    PlanNode plan;
    final List<Integer> jobIds = new ArrayList<>();
    /** Accumulator ids declared by the plan(s); only their values are kept. */
    final Set<Long> metricIds = new HashSet<>();
    final Map<Long, Long> metricValues = new HashMap<>();

    /** Accumulator id → Spark metric type, over every plan the execution had (Spark adds, never removes). */
    final Map<Long, String> metricTypes = new HashMap<>();
    /** The stages of its jobs in the order they were added (Spark's set order is derived from it). */
    private final LinkedHashSet<Integer> stages = new LinkedHashSet<>();
    /** Per stage id, the values of its latest attempt; only stages of jobs that started with metrics declared. */
    private final Map<Integer, SqlStageMetrics> stageMetrics = new HashMap<>();
    /** Accumulator id → stages whose completed-stage accumulables listed it. */
    private final Map<Long, Set<Integer>> accumulableStages = new HashMap<>();
    /** The driver's updates in arrival order, kept until the end (Spark appends each one). */
    private final List<long[]> driverUpdates = new ArrayList<>();
    private final long exactValues;
    private long reservedValues;
    /** Frozen at the end; until then computed on demand and cached while nothing changes. */
    private Map<Long, SqlMetricAggregate> aggregates;
    private boolean dirty = true;

    LiveSqlExecution(long executionId) {
        this(executionId, EXACT_VALUES);
    }

    LiveSqlExecution(long executionId, long exactValues) {
        this.executionId = executionId;
        this.exactValues = exactValues;
    }

    void plan(String description, PlanNode root) {
        if (description != null) {
            physicalPlanDescription = description;
        }
        if (root != null) {
            plan = root;
            collectMetrics(root);
            dirty = true;
        }
    }

    private void collectMetrics(PlanNode node) {
        for (PlanMetric m : node.metrics()) {
            metricIds.add(m.accumulatorId());
            metricTypes.put(m.accumulatorId(), m.metricType() == null ? "" : m.metricType());
        }
        for (PlanNode child : node.children()) {
            collectMetrics(child);
        }
    }

    /**
     * A job of this execution started. As Spark: its stages join the execution's, and each stage it lists starts
     * (again) from no values at attempt 0 — if the execution has declared metrics by then.
     *
     * @return the stage ids this execution now tracks values for (the recorder routes their task ends here)
     */
    List<Integer> jobStarted(List<Integer> stageIds, List<StageInfo> stageInfos) {
        List<Integer> tracked = new ArrayList<>();
        if (!ended && !metricTypes.isEmpty()) {
            for (StageInfo info : stageInfos) {
                SqlStageMetrics old = stageMetrics.put(info.stageId(),
                        new SqlStageMetrics(info.stageId(), 0, info.numTasks()));
                release(old);
                tracked.add(info.stageId());
            }
        }
        stages.addAll(stageIds);
        dirty = true;
        return tracked;
    }

    /**
     * A stage attempt was submitted: a new attempt of a tracked stage starts from no values (Spark's reset).
     *
     * @return whether the execution's values changed (the recorder then marks it for the next write)
     */
    boolean stageSubmitted(int stageId, int attemptId) {
        SqlStageMetrics s = stageMetrics.get(stageId);
        if (s != null && s.attemptId != attemptId && stages.contains(stageId)) {
            stageMetrics.put(stageId, new SqlStageMetrics(stageId, attemptId, s.numTasks));
            release(s);
            dirty = true;
            return true;
        }
        return false;
    }

    /** @return whether the task's values counted (the recorder then marks the execution for the next write) */
    boolean taskEnded(int stageId, int stageAttemptId, long taskId, int index, boolean successful,
                      AccumUpdates updates) {
        if (ended || !stages.contains(stageId)) {
            return false;
        }
        SqlStageMetrics s = stageMetrics.get(stageId);
        if (s == null || s.attemptId != stageAttemptId) {
            return false;
        }
        s.taskEnded(taskId, index, successful, updates, metricTypes, this);
        dirty = true;
        return true;
    }

    void stageAccumulable(int stageId, long accumulatorId) {
        accumulableStages.computeIfAbsent(accumulatorId, k -> new TreeSet<>()).add(stageId);
        dirty = true;
    }

    void driverUpdate(long accumulatorId, long value) {
        // The driver reports a handful per query; the cap only guards against a log that repeats them endlessly.
        if (!ended && driverUpdates.size() < MAX_DRIVER_UPDATES) {
            driverUpdates.add(new long[]{accumulatorId, value});
            dirty = true;
        }
    }

    /** Takes {@code cells} from the budget of values kept one by one; false when they do not fit. */
    boolean reserve(int cells) {
        if (cells > SqlStageMetrics.EXACT_TASKS_PER_STAGE || reservedValues + cells > exactValues) {
            return false;
        }
        reservedValues += cells;
        return true;
    }

    private void release(SqlStageMetrics s) {
        if (s != null) {
            reservedValues -= s.reservedCells();
        }
    }

    /** The execution ended: its metrics are aggregated once and the values behind them let go (as Spark). */
    void end() {
        aggregates = compute();
        dirty = false;
        stageMetrics.clear();
        driverUpdates.clear();
        reservedValues = 0;
    }

    /** The stages whose task ends this execution still wants, to unregister them at its end. */
    Set<Integer> trackedStages() {
        return stageMetrics.keySet();
    }

    Map<Long, SqlMetricAggregate> aggregates() {
        if (ended && aggregates != null) {
            return aggregates;
        }
        if (dirty || aggregates == null) {
            aggregates = compute();
            dirty = false;
        }
        return aggregates;
    }

    /** Spark's {@code aggregateMetrics}, with the statistics its {@code stringValue} takes from the values. */
    private Map<Long, SqlMetricAggregate> compute() {
        List<Integer> order = ScalaSetOrder.of(stages);
        Map<Long, SqlMetricPopulation> pops = new LinkedHashMap<>();
        Map<Long, long[]> maxByMetric = new HashMap<>(); // value, stage, attempt, task
        Map<Long, Set<Integer>> reportingStages = new HashMap<>();
        for (int stageId : order) {
            SqlStageMetrics s = stageMetrics.get(stageId);
            if (s == null) {
                continue;
            }
            for (Map.Entry<Long, SqlStageMetrics.Values> e : s.byMetric.entrySet()) {
                long id = e.getKey();
                String type = metricTypes.get(id);
                if (type == null) {
                    continue;
                }
                SqlStageMetrics.Values v = e.getValue();
                v.addTo(pops.computeIfAbsent(id, k -> new SqlMetricPopulation(type)), s.numTasks);
                reportingStages.computeIfAbsent(id, k -> new TreeSet<>()).add(stageId);
                if (v.hasMax) {
                    long[] best = maxByMetric.get(id);
                    if (best == null) {
                        maxByMetric.put(id, new long[]{v.maxValue, s.stageId, s.attemptId, v.maxTaskId});
                    } else if (v.maxValue > best[0]) {
                        best[0] = v.maxValue;
                        best[1] = s.stageId;
                        best[2] = s.attemptId;
                        best[3] = v.maxTaskId;
                    }
                }
            }
        }
        for (long[] u : driverUpdates) {
            String type = metricTypes.get(u[0]);
            if (type == null) {
                continue;
            }
            SqlMetricPopulation pop = pops.get(u[0]);
            if (pop == null) {
                pop = new SqlMetricPopulation(type);
                pops.put(u[0], pop);
            } else {
                long[] best = maxByMetric.get(u[0]);
                if (best != null && u[1] > best[0]) {
                    maxByMetric.remove(u[0]); // Spark then names the driver
                }
            }
            pop.reported(u[1]);
        }
        Map<Long, SqlMetricAggregate> out = new TreeMap<>();
        for (Map.Entry<Long, SqlMetricPopulation> e : pops.entrySet()) {
            long id = e.getKey();
            long[] best = maxByMetric.get(id);
            Set<Integer> where = new TreeSet<>(reportingStages.getOrDefault(id, Set.of()));
            where.addAll(accumulableStages.getOrDefault(id, Set.of()));
            out.put(id, e.getValue().aggregate(id, best == null ? -1 : (int) best[1], best == null ? -1 : (int) best[2],
                    best == null ? -1 : best[3], new ArrayList<>(where)));
        }
        return out;
    }

    /** The last summary built, reused while the execution has not changed (asked at every snapshot). */
    private SqlExecutionSummary cached;
    private long cachedAt = -1;
    private Map<Long, SqlMetricAggregate> cachedAggregates;

    SqlExecutionSummary summary() {
        // The aggregates are part of the summary: a task end that moved them builds it again even at the same event.
        Map<Long, SqlMetricAggregate> current = aggregates();
        if (cached == null || cachedAt != lastChange || cachedAggregates != current) {
            cached = SqlExecutionSummary.builder().executionId(executionId).description(description)
                    .startTime(startTime).endTime(endTime).errorMessage(errorMessage)
                    .physicalPlanDescription(physicalPlanDescription).plan(plan).jobIds(jobIds)
                    .metricValues(metricValues).metrics(current).stageIds(ScalaSetOrder.of(stages)).build();
            cachedAt = lastChange;
            cachedAggregates = current;
        }
        return cached;
    }
}
