package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.AppSnapshot;

/**
 * Measures {@link RecorderOptions#BYTES_PER_KEPT_TASK}: heap retained by a recorder that keeps every task of a
 * 100 000-task stage in detail, minus one that keeps none (the task value rows are the same in both). Not a test:
 *
 * <pre>
 * mvn -o -q -pl heuristics-core/diagnosis -am test-compile
 * java -cp heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:heuristics-core/model/target/test-classes:heuristics-core/recording/target/test-classes:heuristics-core/diagnosis/target/test-classes:$(ls ~/.m2/repository/com/fasterxml/jackson/core/jackson-*&#47;2.18.6/*.jar | tr '\n' :) \
 *      io.sparkscope.core.recorder.KeptTaskBytes [tasks]
 * </pre>
 */
public final class KeptTaskBytes {
    public static void main(String[] args) {
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        long none = retained(tasks, 0);
        long all = retained(tasks, tasks);
        System.out.printf("%d tasks: kept none %.1f MB, kept all %.1f MB, %.0f bytes per kept task%n",
                tasks, none / 1e6, all / 1e6, (double) (all - none) / tasks);
    }

    private static long retained(int tasks, int cap) {
        long before = used();
        Recorder r = new Recorder(RecorderOptions.DEFAULTS.withTasksPerStage(cap).withRetainedDetailTasks(Integer.MAX_VALUE));
        r.onEvent(new SparkEvent.StageSubmitted(Events.stage(0, 0, tasks, 1000, -1, null)));
        String[] executors = {"1", "2", "3", "4"};
        for (int i = 0; i < tasks; i++) {
            // Typical metrics of a shuffle-map task: a dozen non-zero values, every one a fresh array as in Spark.
            TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 100 + i % 50)
                    .set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, 3).set(TaskMetric.EXECUTOR_CPU_TIME, 90_000_000L)
                    .set(TaskMetric.RESULT_SIZE, 2000).set(TaskMetric.JVM_GC_TIME, i % 7)
                    .set(TaskMetric.SHUFFLE_BYTES_WRITTEN, 10_000 + i).set(TaskMetric.SHUFFLE_RECORDS_WRITTEN, 100)
                    .set(TaskMetric.SHUFFLE_WRITE_TIME, 1_000_000).set(TaskMetric.INPUT_BYTES, 64_000)
                    .set(TaskMetric.INPUT_RECORDS, 1000).build();
            TaskInfo info = new TaskInfo(i, i, 0, i, 1000 + i, executors[i % 4], "host-" + (i % 4), "PROCESS_LOCAL",
                    false, 0, 1200 + i + i % 50, false, false);
            r.onEvent(new SparkEvent.TaskEnd(0, 0, "ShuffleMapTask", TaskEndReason.SUCCESS, info, m));
        }
        AppSnapshot s = r.snapshot();
        long after = used();
        if (s.stages().get(0).keptTasks().size() != cap) {
            throw new IllegalStateException("kept " + s.stages().get(0).keptTasks().size());
        }
        // keep both alive until measured
        return after - before + (r.hashCode() == 0 && s.hashCode() == 0 ? 1 : 0);
    }

    private static long used() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 4; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
