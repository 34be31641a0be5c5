package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.sql.execution.SparkPlanInfo;
import org.apache.spark.sql.execution.metric.SQLMetricInfo;
import org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates;
import org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** spark-sql's events to ours. Kept apart so a driver without spark-sql only fails here, once, quietly. */
final class SqlEventConverter {
    private SqlEventConverter() {
    }

    /** Our event, or null for events we do not record. */
    static SparkEvent convert(SparkListenerEvent e) {
        if (e instanceof SparkListenerSQLExecutionStart s) {
            return new SparkEvent.SqlExecutionStart(s.executionId(), s.description(), s.physicalPlanDescription(),
                    plan(s.sparkPlanInfo()), s.time());
        }
        if (e instanceof SparkListenerSQLExecutionEnd s) {
            // Spark 3.4+ reports success as an empty message, kept as the event-log reader keeps it: Spark's
            // status of the execution tells it from none.
            return new SparkEvent.SqlExecutionEnd(s.executionId(), s.time(),
                    ScalaInterop.stringOr(s.errorMessage(), null));
        }
        if (e instanceof SparkListenerSQLAdaptiveExecutionUpdate s) {
            return new SparkEvent.SqlAdaptivePlanUpdate(s.executionId(), s.physicalPlanDescription(),
                    plan(s.sparkPlanInfo()));
        }
        if (e instanceof SparkListenerDriverAccumUpdates s) {
            List<SparkEvent.AccumUpdate> updates = new ArrayList<>();
            for (scala.Tuple2<Object, Object> kv : ScalaInterop.list(s.accumUpdates())) {
                updates.add(new SparkEvent.AccumUpdate(((Number) kv._1()).longValue(), ((Number) kv._2()).longValue()));
            }
            return new SparkEvent.DriverAccumUpdates(s.executionId(), updates);
        }
        return null;
    }

    static SparkEvent.PlanNode plan(SparkPlanInfo info) {
        if (info == null) {
            return null;
        }
        List<SparkEvent.PlanNode> children = new ArrayList<>();
        for (SparkPlanInfo child : ScalaInterop.list(info.children())) {
            children.add(plan(child));
        }
        List<SparkEvent.PlanMetric> metrics = new ArrayList<>();
        for (SQLMetricInfo m : ScalaInterop.list(info.metrics())) {
            metrics.add(new SparkEvent.PlanMetric(m.name(), m.accumulatorId(), m.metricType()));
        }
        return new SparkEvent.PlanNode(info.nodeName(), info.simpleString(), children, metrics);
    }
}
