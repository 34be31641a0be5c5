package io.sparkscope.core.testing;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Test fixture for the analyses: snapshots with a stage DAG, jobs, executors and exact task durations, times given
 * as offsets from the application start. Quantiles are computed from the tasks with Spark's rule, and {@code keep}
 * drops all but the slowest tasks, as the recorder does.
 */
public final class Apps {
    public static final long T0 = 1_700_000_000_000L;

    private final String name;
    private String appId = "app-1";
    private long durationMs = 60_000;
    private final Map<String, String> conf = new HashMap<>(Map.of("spark.master", "yarn"));
    private final List<ExecutorSummary> executors = new ArrayList<>();
    private final List<JobSummary> jobs = new ArrayList<>();
    private final List<StageSummary> stages = new ArrayList<>();

    private Apps(String name) {
        this.name = name;
    }

    public static Apps app(String name) {
        return new Apps(name);
    }

    public Apps id(String id) {
        this.appId = id;
        return this;
    }

    public Apps durationMs(long ms) {
        this.durationMs = ms;
        return this;
    }

    /** {@code n} executors of {@code cores} cores each, alive the whole run. */
    public Apps executors(int n, int cores) {
        for (int i = 1; i <= n; i++) {
            executors.add(summary(String.valueOf(i), cores, T0, -1));
        }
        return this;
    }

    public Apps executor(String id, int cores, long addOffset, long removeOffset) {
        executors.add(summary(id, cores, T0 + addOffset, removeOffset < 0 ? -1 : T0 + removeOffset));
        return this;
    }

    /** Local mode: the driver runs the tasks on {@code cores} cores. */
    public Apps local(int cores) {
        conf.put("spark.master", "local[" + cores + "]");
        executors.add(summary("driver", cores, T0, -1));
        return this;
    }

    public Apps job(int jobId, long submitOffset, long completeOffset, Integer... stageIds) {
        jobs.add(JobSummary.builder().jobId(jobId).name("job " + jobId).submissionTime(T0 + submitOffset)
                .completionTime(T0 + completeOffset).status(JobSummary.JobStatus.SUCCEEDED).stageIds(List.of(stageIds))
                .build());
        return this;
    }

    public StageSpec stage(int stageId, int jobId) {
        return new StageSpec(this, stageId, jobId);
    }

    public AppSnapshot build() {
        return AppSnapshot.builder().appId(appId).appName(name).sparkUser("tester").sparkVersion("3.5.1").startTime(T0)
                .endTime(T0 + durationMs).lastEventTime(T0 + durationMs).complete(true)
                .config(new AppConfig(conf, Map.of(), Map.of(), Map.of())).executors(executors).jobs(jobs)
                .stages(stages).build();
    }

    private static ExecutorSummary summary(String id, int cores, long add, long remove) {
        return ExecutorSummary.builder().executorId(id).host("host-" + id).totalCores(cores).addTime(add)
                .removeTime(remove).build();
    }

    /** One stage attempt; its window is where its tasks ran (first launch to last finish), as offsets. */
    public static final class StageSpec {
        private final Apps app;
        private final int stageId;
        private final int jobId;
        private int attemptId;
        private String name;
        private List<Integer> parents = List.of();
        private long from;
        private long to = -1;
        private long[] durations = new long[0];
        private long[] launches;
        private int keep = Integer.MAX_VALUE;
        private long inputBytes;
        private boolean skipped;

        StageSpec(Apps app, int stageId, int jobId) {
            this.app = app;
            this.stageId = stageId;
            this.jobId = jobId;
            this.name = "stage " + stageId;
        }

        public StageSpec attempt(int a) {
            attemptId = a;
            return this;
        }

        public StageSpec name(String n) {
            name = n;
            return this;
        }

        public StageSpec parents(Integer... ids) {
            parents = List.of(ids);
            return this;
        }

        /** Where its tasks ran; the stage is submitted at {@code from} and completes at {@code to}. */
        public StageSpec window(long fromOffset, long toOffset) {
            from = fromOffset;
            to = toOffset;
            return this;
        }

        public StageSpec tasks(long... ms) {
            durations = ms.clone();
            return this;
        }

        /** Launch offsets of the tasks, one per task (default: all at the window start, in the given order). */
        public StageSpec launches(long... offsets) {
            launches = offsets.clone();
            return this;
        }

        public StageSpec keep(int n) {
            keep = n;
            return this;
        }

        public StageSpec inputBytes(long bytes) {
            inputBytes = bytes;
            return this;
        }

        public StageSpec skipped() {
            skipped = true;
            return this;
        }

        public Apps done() {
            if (skipped) {
                app.stages.add(StageSummary.builder().stageId(stageId).attemptId(attemptId).name(name).details("")
                        .status(StageSummary.StageStatus.SKIPPED).parentIds(parents).jobIds(List.of(jobId)).build());
                return app;
            }
            long start = T0 + from;
            long end = to >= 0 ? T0 + to : start + Arrays.stream(durations).max().orElse(0);
            List<TaskRecord> records = new ArrayList<>();
            for (int i = 0; i < durations.length; i++) {
                long launch = launches != null ? T0 + launches[i] : start;
                TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, durations[i])
                        .set(TaskMetric.INPUT_BYTES, i == 0 ? inputBytes : 0).build();
                records.add(TaskRecord.builder().taskId(i).index(i).partitionId(i).executorId("1").host("host-1")
                        .locality("PROCESS_LOCAL").launchTime(launch).finishTime(launch + durations[i])
                        .status("SUCCESS").endReason("Success").metrics(m).build());
            }
            long[] sums = new long[TaskMetric.count()];
            for (TaskRecord r : records) {
                StageTotals.accumulate(sums, r.metrics());
            }
            List<TaskRecord> kept = records.stream()
                    .sorted((a, b) -> Long.compare(b.durationMs(), a.durationMs())).limit(keep).toList();
            int n = durations.length;
            app.stages.add(StageSummary.builder().stageId(stageId).attemptId(attemptId).name(name).details("")
                    .status(StageSummary.StageStatus.COMPLETE).numTasks(n).numCompleteTasks(n).numCompletedIndices(n)
                    .submissionTime(start).completionTime(end).firstTaskLaunchedTime(n == 0 ? -1 : start)
                    .lastTaskFinishedTime(n == 0 ? -1 : end).parentIds(parents).jobIds(List.of(jobId))
                    .totals(StageTotals.of(sums)).taskSummary(quantiles(durations)).keptTasks(kept).build());
            return app;
        }

        /** Duration and run time are the task's duration; the other metrics are left at 0. */
        private static TaskDistributions quantiles(long[] durations) {
            long[][] rows = SparkQuantiles.rows(durations.length);
            rows[DistributionMetric.DURATION.ordinal()] = durations;
            rows[DistributionMetric.EXECUTOR_RUN_TIME.ordinal()] = durations;
            return SparkQuantiles.of(rows, durations.length);
        }
    }
}
