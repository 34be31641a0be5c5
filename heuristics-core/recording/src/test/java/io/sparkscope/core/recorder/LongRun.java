package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;

import java.util.List;
import java.util.Map;

/**
 * Events of a long-running application that runs many small SQL jobs one after another, as a job server or a
 * notebook does: each job is one SQL execution with one stage of {@code tasks} tasks. Job {@code i} starts at
 * {@code start + i * 10} ms; groups and descriptions repeat every few jobs.
 */
final class LongRun {
    static final long START = 1_700_000_000_000L;

    private long nextTaskId;

    static SparkEvent.ApplicationStart appStart() {
        return new SparkEvent.ApplicationStart("long-run", "app-long", null, START, "alice");
    }

    static SparkEvent.EnvironmentUpdate environment() {
        return new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[2]", "spark.app.name", "long-run"),
                Map.of(), Map.of(), Map.of());
    }

    /** Feeds job {@code i}: the same ids for the same {@code i}, whatever recorder takes them. */
    void job(Recorder r, int i, int tasks, boolean failTask) {
        long t = START + i * 10L;
        int stageId = i;
        SparkEvent.PlanNode plan = new SparkEvent.PlanNode("WholeStageCodegen", "WholeStageCodegen (1)",
                List.of(new SparkEvent.PlanNode("Range", "Range (0, 1, step=1, splits=1)", List.of(),
                        List.of(new SparkEvent.PlanMetric("number of output rows", 10_000_000L + 2L * i, "sum")))),
                List.of(new SparkEvent.PlanMetric("duration", 10_000_001L + 2L * i, "timing")));
        r.onEvent(new SparkEvent.SqlExecutionStart(i, "query " + (i % 7), "== Physical Plan ==\nRange (0, 1)", plan, t));
        StageInfo pending = new StageInfo(stageId, 0, "count at Job.java:" + (i % 3), tasks, List.of(), "details",
                -1, -1, null, List.of());
        r.onEvent(new SparkEvent.JobStart(i, t + 1, List.of(stageId), List.of(pending),
                Map.of("spark.sql.execution.id", Integer.toString(i), "spark.jobGroup.id", "group-" + (i % 5))));
        r.onEvent(new SparkEvent.StageSubmitted(new StageInfo(stageId, 0, pending.name(), tasks, List.of(),
                "details", t + 2, -1, null, List.of())));
        for (int k = 0; k < tasks; k++) {
            long id = nextTaskId++;
            TaskInfo start = new TaskInfo(id, k, 0, k, t + 2, "driver", "localhost", "PROCESS_LOCAL", false, 0, 0,
                    false, false);
            r.onEvent(new SparkEvent.TaskStart(stageId, 0, start));
            boolean fail = failTask && k == 0;
            TaskInfo end = new TaskInfo(id, k, 0, k, t + 2, "driver", "localhost", "PROCESS_LOCAL", false, 0,
                    t + 6 + k % 3, fail, false);
            TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 3 + k % 3)
                    .set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, 1).set(TaskMetric.EXECUTOR_CPU_TIME, 2_000_000L)
                    .set(TaskMetric.RESULT_SIZE, 1500).set(TaskMetric.JVM_GC_TIME, i % 2).build();
            TaskEndReason reason = fail ? new TaskEndReason("ExceptionFailure", "java.lang.IllegalStateException: no",
                    "trace") : TaskEndReason.SUCCESS;
            r.onEvent(new SparkEvent.TaskEnd(stageId, 0, "ResultTask", reason, end, m));
        }
        r.onEvent(new SparkEvent.StageCompleted(new StageInfo(stageId, 0, pending.name(), tasks, List.of(),
                "details", t + 2, t + 8, null, List.of(new StageInfo.Accumulable(10_000_000L + 2L * i,
                "number of output rows", "1")))));
        r.onEvent(new SparkEvent.JobEnd(i, t + 9, true, null));
        r.onEvent(new SparkEvent.SqlExecutionEnd(i, t + 9, null));
    }
}
