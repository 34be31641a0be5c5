package io.sparkscope.core.sql;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;

import java.util.HashMap;
import java.util.Map;

/**
 * The accumulator ids of the SQL metrics declared by the plans of SQL executions still running: the only
 * accumulators whose per-task updates Spark's SQL tab aggregates. Both adapters (event-log reader, live listener)
 * feed it the SQL events and ask it, for each accumulable of a task end, whether to keep it, so that a task end of
 * an application without running SQL costs nothing more than before.
 *
 * <p>Memory: one entry per distinct metric of the running executions' plans (a plan of 1 000 operators declares a few
 * thousand), released when the execution ends. Not thread-safe: one adapter thread feeds and asks it.
 */
public final class SqlMetricIds {
    /** Accumulator id → number of running executions declaring it. */
    private final LongIntMap running = new LongIntMap(64);
    private final Map<Long, LongIntMap> byExecution = new HashMap<>();

    /** Takes note of the SQL events; every other event is ignored. */
    public void onEvent(SparkEvent event) {
        if (event instanceof SparkEvent.SqlExecutionStart s) {
            plan(s.executionId(), s.plan());
        } else if (event instanceof SparkEvent.SqlAdaptivePlanUpdate u) {
            plan(u.executionId(), u.plan());
        } else if (event instanceof SparkEvent.SqlExecutionEnd e) {
            ended(e.executionId());
        }
    }

    /** A plan (first or re-planned) of a running execution: its metrics join those already declared. */
    public void plan(long executionId, PlanNode root) {
        if (root == null) {
            return;
        }
        LongIntMap own = byExecution.computeIfAbsent(executionId, k -> new LongIntMap(64));
        addIds(root, own);
    }

    private void addIds(PlanNode node, LongIntMap own) {
        for (PlanMetric m : node.metrics()) {
            if (!own.containsKey(m.accumulatorId())) {
                own.put(m.accumulatorId(), 1);
                running.add(m.accumulatorId(), 1);
            }
        }
        for (PlanNode child : node.children()) {
            addIds(child, own);
        }
    }

    /** The execution ended: Spark's SQL tab has taken its values, later task updates change nothing. */
    public void ended(long executionId) {
        LongIntMap own = byExecution.remove(executionId);
        if (own == null) {
            return;
        }
        for (long id : own.keys()) {
            if (running.add(id, -1) <= 0) {
                running.remove(id);
            }
        }
    }

    /** True when no running execution declares a metric: task ends need not look at their accumulables. */
    public boolean isEmpty() {
        return running.isEmpty();
    }

    public boolean contains(long accumulatorId) {
        return running.containsKey(accumulatorId);
    }
}
