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
import io.sparkscope.core.model.TaskRecord;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Synthetic application snapshots for the web tests and the latency bench: jobs of stages with kept tasks whose
 * metrics, totals and quantiles agree with each other, so the heuristics (run by the caller) produce real findings.
 */
public final class SyntheticApps {
    private SyntheticApps() {
    }

    /**
     * @param complete        false = no ApplicationEnd; lastEventTime = start + duration
     * @param failureReason   non-null: the last stage failed with this reason
     * @param spillPerTask    memory bytes spilled per task (0 = none)
     */
    public record Spec(String appId, String attemptId, String name, String user, long start, long durationMs,
                       boolean complete, Map<String, String> conf, int jobs, int stagesPerJob, int tasksPerStage,
                       String failureReason, long spillPerTask, long seed) {
        public Spec withConf(String key, String value) {
            Map<String, String> c = new LinkedHashMap<>(conf);
            c.put(key, value);
            return new Spec(appId, attemptId, name, user, start, durationMs, complete, c, jobs, stagesPerJob,
                    tasksPerStage, failureReason, spillPerTask, seed);
        }
    }

    public static Spec spec(String appId, String name, String user, long start, long durationMs) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.app.name", name);
        conf.put("spark.master", "local[4]");
        conf.put("spark.executor.memory", "4g");
        conf.put("spark.executor.cores", "4");
        conf.put("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
        conf.put("spark.sql.shuffle.partitions", "200");
        return new Spec(appId, null, name, user, start, durationMs, true, conf, 2, 2, 10, null, 0, appId.hashCode());
    }

    public static AppSnapshot snapshot(Spec s) {
        Random r = new Random(s.seed());
        int totalStages = s.jobs() * s.stagesPerJob();
        long stageSpan = Math.max(1, s.durationMs() / (totalStages + 1));
        List<StageSummary> stages = new ArrayList<>();
        List<JobSummary> jobs = new ArrayList<>();
        long execTaskTime = 0;
        long execRun = 0;
        long execGc = 0;
        int stageId = 0;
        for (int j = 0; j < s.jobs(); j++) {
            List<Integer> ids = new ArrayList<>();
            long jobStart = s.start() + 500 + (long) j * s.stagesPerJob() * stageSpan;
            boolean jobFailed = false;
            for (int k = 0; k < s.stagesPerJob(); k++) {
                boolean failed = s.failureReason() != null && j == s.jobs() - 1 && k == s.stagesPerJob() - 1;
                long st = jobStart + (long) k * stageSpan;
                StageSummary stage = stage(stageId, j, st, stageSpan, s.tasksPerStage(), failed ? s.failureReason() : null,
                        s.spillPerTask(), r);
                stages.add(stage);
                for (TaskRecord t : stage.keptTasks()) {
                    execTaskTime += t.finishTime() - t.launchTime();
                    if (t.metrics() != null) {
                        execRun += t.metrics().get(TaskMetric.EXECUTOR_RUN_TIME);
                        execGc += t.metrics().get(TaskMetric.JVM_GC_TIME);
                    }
                }
                ids.add(stageId++);
                jobFailed |= failed;
            }
            long jobEnd = jobStart + (long) s.stagesPerJob() * stageSpan;
            jobs.add(JobSummary.builder().jobId(j).name("job " + j + " at Main.scala:" + (10 + j))
                    .submissionTime(jobStart).completionTime(jobEnd)
                    .status(jobFailed ? JobSummary.JobStatus.FAILED : JobSummary.JobStatus.SUCCEEDED)
                    .failureReason(jobFailed ? "Job aborted due to stage failure: " + s.failureReason() : null)
                    .stageIds(ids).numTasks(s.stagesPerJob() * s.tasksPerStage())
                    .numCompletedTasks(s.stagesPerJob() * s.tasksPerStage()).build());
        }
        long end = s.start() + s.durationMs();
        List<ExecutorSummary> executors = List.of(
                ExecutorSummary.builder().executorId("driver").host("localhost").totalCores(4).addTime(s.start())
                        .maxMemory(2L << 30).completedTasks(s.stagesPerJob() * s.jobs() * s.tasksPerStage())
                        .totalDuration(execTaskTime).totalRunTime(execRun).totalCpuTimeNs(execRun * 900_000L)
                        .totalGcTime(execGc).build());
        // A "sun.java.command" entry stands for the driver's command line, which Spark reports as a system property.
        Map<String, String> spark = new LinkedHashMap<>(s.conf());
        Map<String, String> system = new LinkedHashMap<>(Map.of("user.name", s.user()));
        String command = spark.remove("sun.java.command");
        if (command != null) {
            system.put("sun.java.command", command);
        }
        AppConfig config = new AppConfig(spark, Map.of("Java Version", "17.0.12"), system,
                Map.of("fs.defaultFS", "file:///"));
        return AppSnapshot.builder().appId(s.appId()).attemptId(s.attemptId()).appName(s.name()).sparkUser(s.user())
                .sparkVersion("4.0.4").startTime(s.start()).endTime(s.complete() ? end : -1).lastEventTime(end)
                .complete(s.complete()).config(config).executors(executors).jobs(jobs).stages(stages)
                .driverMaxMemory(1L << 30).eventCount(1000 + totalStages * (long) s.tasksPerStage() * 2).build();
    }

    /** The same run on {@code executors} executors of {@code cores} cores, alive the whole run, instead of local mode. */
    public static AppSnapshot onCluster(AppSnapshot s, int executors, int cores) {
        List<ExecutorSummary> list = new ArrayList<>();
        list.add(ExecutorSummary.builder().executorId("driver").host("driver-host").addTime(s.startTime())
                .maxMemory(1L << 30).build());
        ExecutorSummary local = s.executors().get(0);
        for (int i = 1; i <= executors; i++) {
            list.add(ExecutorSummary.builder().executorId(String.valueOf(i)).host("worker-" + i).totalCores(cores)
                    .addTime(s.startTime()).maxMemory(4L << 30).completedTasks(local.completedTasks() / executors)
                    .totalDuration(local.totalDuration() / executors).totalRunTime(local.totalRunTime() / executors)
                    .totalCpuTimeNs(local.totalCpuTimeNs() / executors).totalGcTime(local.totalGcTime() / executors)
                    .build());
        }
        Map<String, String> conf = new LinkedHashMap<>(s.config().sparkProperties());
        conf.put("spark.master", "yarn");
        conf.put("spark.executor.cores", String.valueOf(cores));
        conf.put("spark.yarn.queue", "etl");
        var config = new AppConfig(conf, s.config().jvmInformation(),
                s.config().systemProperties(), s.config().hadoopProperties());
        return SnapshotBuilder.copy(s).config(config).executors(list).build();
    }

    private static StageSummary stage(int id, int job, long start, long span, int tasks, String failure, long spill,
                                      Random r) {
        List<TaskRecord> kept = new ArrayList<>();
        long[] sums = new long[TaskMetric.count()];
        long[][] perMetric = SparkQuantiles.rows(tasks);
        int failedTasks = failure == null ? 0 : Math.max(1, tasks / 5);
        int ok = 0;
        for (int i = 0; i < tasks; i++) {
            boolean fail = i < failedTasks;
            long run = 200 + r.nextInt(Math.max(1, (int) Math.min(span / 2, 50_000)));
            long gc = run / 20;
            long launch = start + 10 + r.nextInt(50);
            long finish = launch + run + 30;
            TaskMetrics.Builder b = TaskMetrics.builder();
            b.set(TaskMetric.EXECUTOR_RUN_TIME, run);
            b.set(TaskMetric.EXECUTOR_CPU_TIME, run * 800_000L);
            b.set(TaskMetric.JVM_GC_TIME, gc);
            b.set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, 10);
            b.set(TaskMetric.RESULT_SERIALIZATION_TIME, 1);
            b.set(TaskMetric.INPUT_BYTES, 1_000_000L + r.nextInt(1_000_000));
            b.set(TaskMetric.SHUFFLE_BYTES_WRITTEN, 500_000L);
            b.set(TaskMetric.SHUFFLE_LOCAL_BYTES_READ, id > 0 ? 400_000L : 0);
            b.set(TaskMetric.MEMORY_BYTES_SPILLED, spill);
            b.set(TaskMetric.DISK_BYTES_SPILLED, spill / 3);
            TaskMetrics m = b.build();
            for (TaskMetric tm : TaskMetric.values()) {
                sums[tm.ordinal()] += m.get(tm);
            }
            kept.add(TaskRecord.builder().taskId(id * 100_000L + i).index(i).partitionId(i).executorId("driver")
                    .host("localhost").locality("PROCESS_LOCAL").launchTime(launch).finishTime(finish)
                    .status(fail ? "FAILED" : "SUCCESS").endReason(fail ? "ExceptionFailure" : "Success")
                    .errorMessage(fail ? "java.lang.RuntimeException: " + failure : null).metrics(m).build());
            if (!fail) {
                perMetric[DistributionMetric.DURATION.ordinal()][ok] = finish - launch;
                perMetric[DistributionMetric.EXECUTOR_RUN_TIME.ordinal()][ok] = run;
                perMetric[DistributionMetric.EXECUTOR_CPU_TIME.ordinal()][ok] = run * 800_000L;
                perMetric[DistributionMetric.JVM_GC_TIME.ordinal()][ok] = gc;
                perMetric[DistributionMetric.EXECUTOR_DESERIALIZE_TIME.ordinal()][ok] = 10;
                perMetric[DistributionMetric.RESULT_SERIALIZATION_TIME.ordinal()][ok] = 1;
                perMetric[DistributionMetric.SCHEDULER_DELAY.ordinal()][ok] = 19;
                perMetric[DistributionMetric.INPUT_BYTES_READ.ordinal()][ok] = m.get(TaskMetric.INPUT_BYTES);
                perMetric[DistributionMetric.SHUFFLE_WRITE_BYTES.ordinal()][ok] = 500_000L;
                perMetric[DistributionMetric.SHUFFLE_READ_BYTES.ordinal()][ok] = id > 0 ? 400_000L : 0;
                perMetric[DistributionMetric.MEMORY_BYTES_SPILLED.ordinal()][ok] = spill;
                perMetric[DistributionMetric.DISK_BYTES_SPILLED.ordinal()][ok] = spill / 3;
                ok++;
            }
        }
        StageSummary.StageStatus status = failure == null ? StageSummary.StageStatus.COMPLETE : StageSummary.StageStatus.FAILED;
        return StageSummary.builder().stageId(id)
                .name((id % 2 == 0 ? "map at Job.scala:" : "save at Job.scala:") + (20 + id)).details("details")
                .status(status).numTasks(tasks).numCompleteTasks(tasks - failedTasks).numFailedTasks(failedTasks)
                .numCompletedIndices(tasks - failedTasks).submissionTime(start).completionTime(start + span)
                .firstTaskLaunchedTime(start + 10).lastTaskFinishedTime(start + span - 5).failureReason(failure)
                .parentIds(id == 0 ? List.of() : List.of(id - 1)).jobIds(List.of(job)).totals(StageTotals.of(sums))
                .taskSummary(SparkQuantiles.of(perMetric, ok)).keptTasks(kept)
                .endReasons(failedTasks > 0 ? Map.of("ExceptionFailure", failedTasks) : Map.of()).build();
    }
}
