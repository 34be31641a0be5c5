package io.sparkscope.server.web.page;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.store.query.AppRefs;
import io.sparkscope.store.query.TaskListQuery;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Task table pages made in memory, with the shapes the page treats apart: failed attempts with long multi-line
 * errors, speculative copies, tasks without metrics or times, hostile and non-ASCII names.
 */
final class TaskPages {
    static final String EVIL = "<script>alert('x')</script>\"&";

    private TaskPages() {
    }

    /** A page of {@code rows} tasks of a 50 000-task stage, from task {@code offset} on. */
    static TaskListQuery.Page page(int rows, boolean running, String taskDetail) {
        long start = 1_700_000_000_000L;
        var app = new AppRefs.Resolved(1, "app-1 " + EVIL, running ? null : "2", "ETL — naïve " + EVIL, start,
                running ? 0 : start + 3_600_000, start + 60_000, !running);
        var stage = new TaskListQuery.Stage("map at Job.scala:42 " + EVIL + "\nmore lines of the call site",
                "COMPLETE", 50_000, 49_990, 7, 3, taskDetail, 20_000);
        List<TaskRecord> tasks = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            boolean failed = i % 17 == 3;
            TaskMetrics m = i % 23 == 5 ? null : TaskMetrics.builder()
                    .set(TaskMetric.EXECUTOR_RUN_TIME, 100L + i * 37L).set(TaskMetric.JVM_GC_TIME, i % 50)
                    .set(TaskMetric.SHUFFLE_BYTES_WRITTEN, 1_000_000L * i).set(TaskMetric.INPUT_BYTES, 123_456L * i)
                    .set(TaskMetric.MEMORY_BYTES_SPILLED, i % 7 == 0 ? 5_000_000_000L : 0)
                    .set(TaskMetric.PEAK_EXECUTION_MEMORY, 64L << 20).build();
            String error = failed ? "java.lang.IllegalStateException: " + EVIL + "\n\tat Job.run(Job.java:7)\n\tat a.b"
                    + "\n\tat c.d\n\tat e.f" : null;
            long launch = start + i * 1_000L;
            tasks.add(new TaskRecord(1000 + i, i, failed ? 1 : 0, i, i % 9 == 0 ? null : String.valueOf(i % 12),
                    "host-" + (i % 12) + ".example.com", i % 3 == 0 ? "NODE_LOCAL" : "PROCESS_LOCAL", i % 31 == 1,
                    launch, i % 29 == 4 ? 0 : launch + 200 + i, 0, failed ? "FAILED" : i % 41 == 2 ? null : "SUCCESS",
                    failed ? "ExceptionFailure" : "Success", failed ? "boom " + EVIL : null, m, error));
        }
        List<String> executors = new ArrayList<>(List.of("driver", EVIL));
        for (int e = 0; e < 12; e++) {
            executors.add(String.valueOf(e));
        }
        return new TaskListQuery.Page(app, stage, tasks, 50_000, false, executors);
    }

    static TaskListQuery.Request request(int offset, int length, TaskListQuery.Sort sort, boolean desc,
                                         Set<String> statuses, String executor) {
        return new TaskListQuery.Request(3, 1, offset, length, sort, desc, statuses, executor);
    }
}
