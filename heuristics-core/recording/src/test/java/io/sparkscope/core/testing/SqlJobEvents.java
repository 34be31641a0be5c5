package io.sparkscope.core.testing;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.recorder.Recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The events of the small SQL jobs a long-running driver runs one after another (a notebook, a job server), fed to a
 * recorder: for tests of windows, partial writes and the figures of the whole run.
 */
public final class SqlJobEvents {
    private SqlJobEvents() {
    }

    /**
     * SQL job {@code i}: one stage of 3 tasks on the driver, jobs 100 ms apart from {@code t0} + 1 s, so the driver
     * works alone in between. With {@code staggered} the tasks start 1 ms apart and end at varying times, so the
     * stages' task spans (and the driver's time alone between them) differ job by job.
     */
    public static void oneStageJob(Recorder r, int i, long t0, boolean staggered) {
        events(i, t0, 3, staggered).forEach(r::onEvent);
    }

    /** The events of SQL job {@code i} as {@link #oneStageJob} describes it, with {@code tasks} tasks. */
    public static List<SparkEvent> events(int i, long t0, int tasks, boolean staggered) {
        return events(i, t0, tasks, staggered, "collect");
    }

    /** The same, with the stage named {@code stageName} (as Spark names it: the call site that submitted it). */
    public static List<SparkEvent> events(int i, long t0, int tasks, boolean staggered, String stageName) {
        List<SparkEvent> out = new ArrayList<>();
        long t = t0 + 1000 + i * 100L;
        out.add(new SparkEvent.SqlExecutionStart(i, "query " + i, "plan", null, t));
        StageInfo pending = new StageInfo(i, 0, stageName, tasks, List.of(), "", -1, -1, null, List.of());
        out.add(new SparkEvent.JobStart(i, t, List.of(i), List.of(pending),
                Map.of("spark.sql.execution.id", Integer.toString(i))));
        out.add(new SparkEvent.StageSubmitted(new StageInfo(i, 0, stageName, tasks, List.of(), "", t, -1, null,
                List.of())));
        for (int k = 0; k < tasks; k++) {
            long id = i * (long) tasks + k;
            TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 10 + k).build();
            long launch = staggered ? t + 1 + k : t + 1;
            long finish = staggered ? t + 20 + i % 7 : t + 20;
            out.add(new SparkEvent.TaskEnd(i, 0, "ResultTask", TaskEndReason.SUCCESS, new TaskInfo(id, k, 0, k,
                    launch, "driver", "localhost", "PROCESS_LOCAL", false, 0, finish, false, false), m));
        }
        out.add(new SparkEvent.StageCompleted(new StageInfo(i, 0, stageName, tasks, List.of(), "", t, t + 30, null,
                List.of())));
        out.add(new SparkEvent.JobEnd(i, t + 31, true, null));
        out.add(new SparkEvent.SqlExecutionEnd(i, t + 32, null));
        return out;
    }
}
