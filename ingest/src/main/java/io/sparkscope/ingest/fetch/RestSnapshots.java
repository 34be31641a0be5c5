package io.sparkscope.ingest.fetch;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.recorder.Quantiles;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.redact.Redactor;
import io.sparkscope.core.redact.SnapshotRedactor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Builds the {@link AppSnapshot} of one completed application attempt from the History Server's REST API, with the
 * recorder's rules wherever the API carries the data, and nothing made up where it does not.
 *
 * <p>Requests per attempt: {@code environment}, {@code allexecutors}, {@code jobs}, {@code stages}, {@code sql}
 * (paged), then per stage attempt that ran tasks {@code stages/{s}/{a}?details=true&taskStatus=FAILED&withSummaries=true}
 * (totals, task quantiles, every failed task, per-executor sums) and
 * {@code stages/{s}/{a}/taskList?sortBy=-runtime&status=SUCCESS&status=KILLED} (the slowest tasks).
 *
 * <p>What the REST API lacks, and so stays unknown here (README, "Fetch from a Spark History Server"): stage parent
 * ids; a job's failure reason; SQL plan trees, SQL metric values and SQL error messages; the event count and the last
 * event time (taken as the end time); per-executor run and CPU time (known only when a single executor ran every
 * task); the driver's task GC time when other executors ran tasks too; a stage's last task finish time unless every
 * task of it is in hand. Spark's REST ranks tasks by executor run time, the recorder by duration, so with more tasks
 * than {@code tasksPerStage} the kept slowest tasks can differ.
 */
final class RestSnapshots {
    private final HistoryClient client;
    private final RecorderOptions options;
    private final double[] quantiles;
    private final String quantileParam;

    RestSnapshots(HistoryClient client, RecorderOptions options) {
        this.client = client;
        this.options = options;
        this.quantiles = options.computedQuantiles();
        this.quantileParam = java.util.Arrays.stream(quantiles).mapToObj(Double::toString)
                .collect(Collectors.joining(","));
    }

    AppSnapshot fetch(ListedApp app) {
        String base = app.apiPath();
        JsonNode env = client.getJson(base + "/environment");
        JsonNode execs = client.getJson(base + "/allexecutors");
        JsonNode jobsJson = client.getJson(base + "/jobs");
        JsonNode stageList = client.getJson(base + "/stages");
        List<SqlExecutionSummary> sql = sqlExecutions(base);

        Map<Integer, Long> sqlByJob = new HashMap<>();
        for (SqlExecutionSummary q : sql) {
            for (int jobId : q.jobIds()) {
                sqlByJob.put(jobId, q.executionId());
            }
        }
        Map<Integer, TreeSet<Integer>> jobsByStage = new HashMap<>();
        List<JobSummary> jobs = new ArrayList<>();
        for (JsonNode j : jobsJson) {
            JobSummary job = job(j, sqlByJob);
            jobs.add(job);
            for (int stageId : job.stageIds()) {
                jobsByStage.computeIfAbsent(stageId, k -> new TreeSet<>()).add(job.jobId());
            }
        }
        jobs.sort(Comparator.comparingInt(JobSummary::jobId));

        Map<String, ExecutorSums> sums = new HashMap<>();
        long[] allTotals = new long[TaskMetric.count()];
        List<StageSummary> stages = new ArrayList<>();
        for (JsonNode s : stageList) {
            StageSummary stage = stage(base, s, jobsByStage, sums);
            stages.add(stage);
            for (TaskMetric m : TaskMetric.values()) {
                allTotals[m.ordinal()] += stage.totals().get(m);
            }
        }
        stages.sort(Comparator.comparingInt(StageSummary::stageId).thenComparingInt(StageSummary::attemptId));

        Map<String, String> hostByExecutor = new HashMap<>();
        for (StageSummary s : stages) {
            for (TaskRecord t : s.keptTasks()) {
                if (t.executorId() != null && t.host() != null) {
                    hostByExecutor.putIfAbsent(t.executorId(), t.host());
                }
            }
        }
        List<ExecutorSummary> executors = executors(execs, sums, allTotals, hostByExecutor);
        long driverMaxMemory = -1;
        long driverGc = -1;
        for (ExecutorSummary e : executors) {
            if (e.isDriver()) {
                driverMaxMemory = e.maxMemory();
                driverGc = Recorder.gcTime(e.peakMetrics());
            }
        }
        // The History Server applies only Spark's configuration rule; descriptions, plans and errors need ours.
        return SnapshotRedactor.redact(AppSnapshot.builder().appId(app.appId()).attemptId(app.attemptId())
                .appName(app.name()).sparkUser(app.sparkUser()).sparkVersion(app.sparkVersion())
                .startTime(app.startTime()).endTime(app.endTime()).lastEventTime(app.endTime())
                .complete(app.completed()).config(config(env)).executors(executors).jobs(jobs).stages(stages)
                .sqlExecutions(sql).driverGcTimeMs(driverGc).driverMaxMemory(driverMaxMemory).build());
    }

    // ---- environment --------------------------------------------------------------------------------------------

    /** Spark's {@code ApplicationEnvironmentInfo} with the app's own redaction rule applied, as the recorder does. */
    static AppConfig config(JsonNode env) {
        Map<String, String> spark = pairs(env.path("sparkProperties"));
        Map<String, String> jvm = new LinkedHashMap<>();
        JsonNode runtime = env.path("runtime");
        // The recorder keeps the event's "JVM Information" map, whose keys the REST runtime object renames.
        putIfPresent(jvm, "Java Home", RestJson.text(runtime, "javaHome"));
        putIfPresent(jvm, "Java Version", RestJson.text(runtime, "javaVersion"));
        putIfPresent(jvm, "Scala Version", RestJson.text(runtime, "scalaVersion"));
        Redactor redactor = Redactor.forSparkProperties(spark);
        return new AppConfig(redactor.redact(spark), redactor.redact(jvm),
                redactor.redact(pairs(env.path("systemProperties"))),
                redactor.redact(pairs(env.path("hadoopProperties"))));
    }

    private static void putIfPresent(Map<String, String> map, String key, String value) {
        if (value != null) {
            map.put(key, value);
        }
    }

    /** {@code [["key","value"], …]} → map. */
    private static Map<String, String> pairs(JsonNode array) {
        Map<String, String> out = new LinkedHashMap<>();
        for (JsonNode pair : array) {
            if (pair.isArray() && pair.size() >= 2 && !pair.get(0).isNull()) {
                out.put(pair.get(0).asText(), pair.get(1).isNull() ? null : pair.get(1).asText());
            }
        }
        return out;
    }

    // ---- jobs and SQL -------------------------------------------------------------------------------------------

    static JobSummary job(JsonNode j, Map<Integer, Long> sqlByJob) {
        int jobId = RestJson.intOf(j, "jobId", -1);
        List<Integer> stageIds = new ArrayList<>();
        for (JsonNode id : j.path("stageIds")) {
            stageIds.add(id.asInt());
        }
        String status = RestJson.text(j, "status");
        JobSummary.JobStatus js;
        try {
            js = status == null ? JobSummary.JobStatus.UNKNOWN : JobSummary.JobStatus.valueOf(status);
        } catch (IllegalArgumentException e) {
            js = JobSummary.JobStatus.UNKNOWN;
        }
        String name = RestJson.text(j, "name");
        return JobSummary.builder().jobId(jobId).name(name == null ? "" : name)
                .description(RestJson.text(j, "description")).jobGroup(RestJson.text(j, "jobGroup"))
                .submissionTime(RestJson.date(j, "submissionTime")).completionTime(RestJson.date(j, "completionTime"))
                .status(js).stageIds(stageIds).sqlExecutionId(sqlByJob.getOrDefault(jobId, -1L))
                .numTasks(RestJson.intOf(j, "numTasks", 0))
                .numCompletedTasks(RestJson.intOf(j, "numCompletedTasks", 0))
                .numFailedTasks(RestJson.intOf(j, "numFailedTasks", 0))
                .numKilledTasks(RestJson.intOf(j, "numKilledTasks", 0))
                .numSkippedStages(RestJson.intOf(j, "numSkippedStages", 0)).build();
    }

    private static final int SQL_PAGE = 500;

    /** Spark SQL's {@code /sql} executions, paged; none when the History Server has no SQL support (404). */
    private List<SqlExecutionSummary> sqlExecutions(String base) {
        List<SqlExecutionSummary> out = new ArrayList<>();
        for (int offset = 0; ; offset += SQL_PAGE) {
            JsonNode page;
            try {
                page = client.getJson(base + "/sql?details=false&planDescription=true&offset=" + offset
                        + "&length=" + SQL_PAGE);
            } catch (HistoryServerException e) {
                if (e.status() == 404 && offset == 0) {
                    return out;
                }
                throw e;
            }
            for (JsonNode q : page) {
                out.add(sql(q));
            }
            if (page.size() < SQL_PAGE) {
                break;
            }
        }
        out.sort(Comparator.comparingLong(SqlExecutionSummary::executionId));
        return out;
    }

    static SqlExecutionSummary sql(JsonNode q) {
        TreeSet<Integer> jobIds = new TreeSet<>();
        for (String field : List.of("runningJobIds", "successJobIds", "failedJobIds")) {
            for (JsonNode id : q.path(field)) {
                jobIds.add(id.asInt());
            }
        }
        long start = RestJson.date(q, "submissionTime");
        boolean running = "RUNNING".equals(RestJson.text(q, "status"));
        long duration = RestJson.longOf(q, "duration", -1);
        long end = running || start < 0 || duration < 0 ? -1 : start + duration;
        String plan = RestJson.text(q, "planDescription");
        // No plan tree, metric values or error message: the REST API does not carry them in a usable form.
        return SqlExecutionSummary.builder().executionId(RestJson.longOf(q, "id", -1))
                .description(RestJson.text(q, "description")).startTime(start).endTime(end)
                .physicalPlanDescription(plan == null || plan.isEmpty() ? null : plan).jobIds(new ArrayList<>(jobIds))
                .build();
    }

    // ---- stages and tasks ---------------------------------------------------------------------------------------

    private StageSummary stage(String base, JsonNode listed, Map<Integer, TreeSet<Integer>> jobsByStage,
                               Map<String, ExecutorSums> sums) {
        int stageId = RestJson.intOf(listed, "stageId", -1);
        int attemptId = RestJson.intOf(listed, "attemptId", 0);
        int complete = RestJson.intOf(listed, "numCompleteTasks", 0);
        int failed = RestJson.intOf(listed, "numFailedTasks", 0);
        int killed = RestJson.intOf(listed, "numKilledTasks", 0);
        JsonNode s = listed;
        List<TaskRecord> failedTasks = new ArrayList<>();
        List<TaskRecord> slowTasks = new ArrayList<>();
        Map<String, Integer> endReasons = new TreeMap<>();
        int failedSeen = 0;
        if (complete + failed + killed > 0) {
            String path = base + "/stages/" + stageId + "/" + attemptId;
            // details=true with taskStatus=FAILED: the attempt's failed tasks and per-executor sums, not every task.
            s = client.getJson(path + "?details=true&taskStatus=FAILED"
                    + (complete > 0 ? "&withSummaries=true&quantiles=" + quantileParam : ""));
            for (JsonNode t : s.path("tasks")) {
                if ("FAILED".equals(RestJson.text(t, "status"))) {
                    TaskRecord r = task(t);
                    failedTasks.add(r);
                    endReasons.merge(r.endReason(), 1, Integer::sum);
                    failedSeen++;
                }
            }
            s.path("killedTasksSummary").fields().forEachRemaining(e -> endReasons.merge(
                    e.getKey().startsWith("TaskCommitDenied") ? "TaskCommitDenied" : "TaskKilled",
                    e.getValue().asInt(), Integer::sum));
            s.path("executorSummary").fields().forEachRemaining(e ->
                    sums.computeIfAbsent(e.getKey(), k -> new ExecutorSums()).add(e.getValue()));
            if (complete + killed > 0 && options.tasksPerStage() > 0) {
                for (JsonNode t : client.getJson(path + "/taskList?offset=0&length=" + options.tasksPerStage()
                        + "&sortBy=-runtime&status=SUCCESS&status=KILLED")) {
                    slowTasks.add(task(t));
                }
            }
        }
        // Recorder order: slowest first (duration, then task id), then failed tasks in the order they ended; the
        // REST API does not give that order, task id order is the closest.
        slowTasks.sort(Comparator.comparingLong(TaskRecord::durationMs).reversed()
                .thenComparingLong(TaskRecord::taskId));
        failedTasks.sort(Comparator.comparingLong(TaskRecord::taskId));
        List<TaskRecord> kept = new ArrayList<>(slowTasks);
        kept.addAll(failedTasks.subList(0, Math.min(failedTasks.size(), options.failedTasksPerStage())));

        long lastFinish = -1;
        if (slowTasks.size() == complete + killed && failedSeen == failed) {
            // Every ended task is in hand, so the latest finish is known exactly.
            for (TaskRecord t : kept) {
                lastFinish = Math.max(lastFinish, t.finishTime() > 0 ? t.finishTime() : -1);
            }
        }
        long[] totals = new long[TaskMetric.count()];
        for (TaskMetric m : TaskMetric.values()) {
            totals[m.ordinal()] = RestJson.longOf(s, m.stageTotalName, 0);
        }
        String name = RestJson.text(s, "name");
        String details = RestJson.text(s, "details");
        TreeSet<Integer> jobIds = jobsByStage.getOrDefault(stageId, new TreeSet<>());
        return StageSummary.builder().stageId(stageId).attemptId(attemptId).name(name == null ? "" : name)
                .details(details == null ? "" : details).status(stageStatus(RestJson.text(s, "status")))
                .numTasks(RestJson.intOf(s, "numTasks", 0)).numActiveTasks(RestJson.intOf(s, "numActiveTasks", 0))
                .numCompleteTasks(complete).numFailedTasks(failed).numKilledTasks(killed)
                .numCompletedIndices(RestJson.intOf(s, "numCompletedIndices", 0))
                .submissionTime(RestJson.date(s, "submissionTime")).completionTime(RestJson.date(s, "completionTime"))
                .firstTaskLaunchedTime(RestJson.date(s, "firstTaskLaunchedTime")).lastTaskFinishedTime(lastFinish)
                .failureReason(RestJson.text(s, "failureReason")).jobIds(new ArrayList<>(jobIds))
                .totals(StageTotals.of(totals))
                .taskSummary(distributions(s.get("taskMetricsDistributions"), complete, failed + killed, slowTasks))
                .keptTasks(kept).endReasons(endReasons).build();
    }

    private static StageSummary.StageStatus stageStatus(String s) {
        try {
            return s == null ? StageSummary.StageStatus.PENDING : StageSummary.StageStatus.valueOf(s);
        } catch (IllegalArgumentException e) {
            return StageSummary.StageStatus.PENDING;
        }
    }

    /** Metrics Spark's History Server computes over the wrong population when a stage has failed or killed tasks. */
    private static final List<DistributionMetric> UNMASKED = List.of(DistributionMetric.DURATION,
            DistributionMetric.GETTING_RESULT_TIME, DistributionMetric.SCHEDULER_DELAY);

    /**
     * Spark's {@code TaskMetricDistributions} at our quantiles. It has no count field; the population (successful
     * tasks with metrics) is the stage's successful tasks, {@code numCompleteTasks}.
     *
     * <p>Spark's History Server keeps the metrics of failed and killed tasks negated so its quantile scans skip them,
     * but not their duration, getting-result time and scheduler delay: with failed or killed tasks in a stage, those
     * three quantiles take the first {@code n} of <em>all</em> tasks' values (n = successful tasks). When every
     * successful task is in hand (no more than {@code tasksPerStage}) they are recomputed here over the successful
     * tasks, as the recorder computes them; otherwise Spark's values stay, and can differ from an import.
     */
    private TaskDistributions distributions(JsonNode d, int complete, int unsuccessful, List<TaskRecord> slowest) {
        if (d == null || d.isNull() || complete <= 0) {
            return null;
        }
        double[] served = new double[d.path("quantiles").size()];
        for (int i = 0; i < served.length; i++) {
            served[i] = d.path("quantiles").get(i).asDouble();
        }
        double[][] values = new double[DistributionMetric.count()][quantiles.length];
        for (DistributionMetric m : DistributionMetric.values()) {
            JsonNode arr = RestJson.at(d, m.path);
            for (int q = 0; q < quantiles.length; q++) {
                int i = indexOf(served, quantiles[q]);
                values[m.ordinal()][q] = i >= 0 && arr.has(i) ? arr.get(i).asDouble() : 0.0;
            }
        }
        if (unsuccessful > 0) {
            List<TaskRecord> ok = slowest.stream().filter(t -> "SUCCESS".equals(t.status()) && t.metrics() != null)
                    .toList();
            if (ok.size() == complete) {
                for (DistributionMetric m : UNMASKED) {
                    long[] v = new long[ok.size()];
                    for (int i = 0; i < v.length; i++) {
                        TaskRecord t = ok.get(i);
                        v[i] = m.valueOf(new TaskInfo(t.taskId(), t.index(), t.attempt(), t.partitionId(),
                                t.launchTime(), t.executorId(), t.host(), t.locality(), t.speculative(),
                                t.gettingResultTime(), t.finishTime(), false, false), t.metrics());
                    }
                    values[m.ordinal()] = Quantiles.of(v, v.length, quantiles);
                }
            }
        }
        return new TaskDistributions(complete, true, quantiles, values);
    }

    private static int indexOf(double[] qs, double q) {
        for (int i = 0; i < qs.length; i++) {
            if (Math.abs(qs[i] - q) < 1e-9) {
                return i;
            }
        }
        return -1;
    }

    /** Spark's REST {@code TaskData} as the recorder's {@link TaskRecord}. */
    static TaskRecord task(JsonNode t) {
        String status = RestJson.text(t, "status");
        TaskEndReason reason = TaskErrors.reason(status, RestJson.text(t, "errorMessage"));
        long launch = RestJson.date(t, "launchTime");
        long duration = RestJson.longOf(t, "duration", -1);
        long fetchStart = RestJson.date(t, "resultFetchStart");
        JsonNode m = t.get("taskMetrics");
        return TaskRecord.builder().taskId(RestJson.longOf(t, "taskId", -1)).index(RestJson.intOf(t, "index", -1))
                .attempt(RestJson.intOf(t, "attempt", 0)).partitionId(RestJson.intOf(t, "partitionId", -1))
                .executorId(RestJson.text(t, "executorId")).host(RestJson.text(t, "host"))
                .locality(RestJson.text(t, "taskLocality")).speculative(t.path("speculative").asBoolean(false))
                .launchTime(launch).finishTime(duration >= 0 && launch > 0 ? launch + duration : 0)
                .gettingResultTime(Math.max(0, fetchStart)).status(status).endReason(reason.kind())
                .errorMessage(reason.isSuccess() ? null : reason.description())
                .metrics(m == null || m.isNull() ? null : metrics(m))
                .errorDetail(reason.isSuccess() ? null : reason.stackTrace()).build();
    }

    /** REST {@code TaskMetrics} field paths of every {@link TaskMetric}. */
    private static final Map<TaskMetric, String> METRIC_PATHS = metricPaths();

    private static Map<TaskMetric, String> metricPaths() {
        Map<TaskMetric, String> p = new java.util.EnumMap<>(TaskMetric.class);
        p.put(TaskMetric.EXECUTOR_DESERIALIZE_TIME, "executorDeserializeTime");
        p.put(TaskMetric.EXECUTOR_DESERIALIZE_CPU_TIME, "executorDeserializeCpuTime");
        p.put(TaskMetric.EXECUTOR_RUN_TIME, "executorRunTime");
        p.put(TaskMetric.EXECUTOR_CPU_TIME, "executorCpuTime");
        p.put(TaskMetric.RESULT_SIZE, "resultSize");
        p.put(TaskMetric.JVM_GC_TIME, "jvmGcTime");
        p.put(TaskMetric.RESULT_SERIALIZATION_TIME, "resultSerializationTime");
        p.put(TaskMetric.MEMORY_BYTES_SPILLED, "memoryBytesSpilled");
        p.put(TaskMetric.DISK_BYTES_SPILLED, "diskBytesSpilled");
        p.put(TaskMetric.PEAK_EXECUTION_MEMORY, "peakExecutionMemory");
        p.put(TaskMetric.INPUT_BYTES, "inputMetrics.bytesRead");
        p.put(TaskMetric.INPUT_RECORDS, "inputMetrics.recordsRead");
        p.put(TaskMetric.OUTPUT_BYTES, "outputMetrics.bytesWritten");
        p.put(TaskMetric.OUTPUT_RECORDS, "outputMetrics.recordsWritten");
        p.put(TaskMetric.SHUFFLE_REMOTE_BLOCKS_FETCHED, "shuffleReadMetrics.remoteBlocksFetched");
        p.put(TaskMetric.SHUFFLE_LOCAL_BLOCKS_FETCHED, "shuffleReadMetrics.localBlocksFetched");
        p.put(TaskMetric.SHUFFLE_FETCH_WAIT_TIME, "shuffleReadMetrics.fetchWaitTime");
        p.put(TaskMetric.SHUFFLE_REMOTE_BYTES_READ, "shuffleReadMetrics.remoteBytesRead");
        p.put(TaskMetric.SHUFFLE_REMOTE_BYTES_READ_TO_DISK, "shuffleReadMetrics.remoteBytesReadToDisk");
        p.put(TaskMetric.SHUFFLE_LOCAL_BYTES_READ, "shuffleReadMetrics.localBytesRead");
        p.put(TaskMetric.SHUFFLE_RECORDS_READ, "shuffleReadMetrics.recordsRead");
        p.put(TaskMetric.SHUFFLE_REMOTE_REQS_DURATION, "shuffleReadMetrics.remoteReqsDuration");
        String push = "shuffleReadMetrics.shufflePushReadMetrics.";
        p.put(TaskMetric.SHUFFLE_CORRUPT_MERGED_BLOCK_CHUNKS, push + "corruptMergedBlockChunks");
        p.put(TaskMetric.SHUFFLE_MERGED_FETCH_FALLBACK_COUNT, push + "mergedFetchFallbackCount");
        p.put(TaskMetric.SHUFFLE_MERGED_REMOTE_BLOCKS_FETCHED, push + "remoteMergedBlocksFetched");
        p.put(TaskMetric.SHUFFLE_MERGED_LOCAL_BLOCKS_FETCHED, push + "localMergedBlocksFetched");
        p.put(TaskMetric.SHUFFLE_MERGED_REMOTE_CHUNKS_FETCHED, push + "remoteMergedChunksFetched");
        p.put(TaskMetric.SHUFFLE_MERGED_LOCAL_CHUNKS_FETCHED, push + "localMergedChunksFetched");
        p.put(TaskMetric.SHUFFLE_MERGED_REMOTE_BYTES_READ, push + "remoteMergedBytesRead");
        p.put(TaskMetric.SHUFFLE_MERGED_LOCAL_BYTES_READ, push + "localMergedBytesRead");
        p.put(TaskMetric.SHUFFLE_MERGED_REMOTE_REQS_DURATION, push + "remoteMergedReqsDuration");
        p.put(TaskMetric.SHUFFLE_BYTES_WRITTEN, "shuffleWriteMetrics.bytesWritten");
        p.put(TaskMetric.SHUFFLE_WRITE_TIME, "shuffleWriteMetrics.writeTime");
        p.put(TaskMetric.SHUFFLE_RECORDS_WRITTEN, "shuffleWriteMetrics.recordsWritten");
        if (p.size() != TaskMetric.count()) {
            throw new IllegalStateException("a TaskMetric has no REST path");
        }
        return p;
    }

    static TaskMetrics metrics(JsonNode m) {
        TaskMetrics.Builder b = TaskMetrics.builder();
        METRIC_PATHS.forEach((metric, path) -> b.set(metric, RestJson.at(m, path).asLong(0)));
        return b.build();
    }

    // ---- executors ----------------------------------------------------------------------------------------------

    /** Per executor, the sums of its {@code ExecutorStageSummary} over all stage attempts. */
    private static final class ExecutorSums {
        long taskTime;
        long killed;
        long memorySpilled;
        long diskSpilled;

        void add(JsonNode e) {
            taskTime += RestJson.longOf(e, "taskTime", 0);
            killed += RestJson.longOf(e, "killedTasks", 0);
            memorySpilled += RestJson.longOf(e, "memoryBytesSpilled", 0);
            diskSpilled += RestJson.longOf(e, "diskBytesSpilled", 0);
        }
    }

    private static List<ExecutorSummary> executors(JsonNode execs, Map<String, ExecutorSums> sums, long[] allTotals,
                                                   Map<String, String> hostByExecutor) {
        int withTasks = 0;
        for (JsonNode e : execs) {
            if (RestJson.intOf(e, "totalTasks", 0) > 0) {
                withTasks++;
            }
        }
        List<ExecutorSummary> out = new ArrayList<>();
        for (JsonNode e : execs) {
            String id = RestJson.text(e, "id");
            boolean driver = "driver".equals(id);
            int completed = RestJson.intOf(e, "completedTasks", 0);
            int failed = RestJson.intOf(e, "failedTasks", 0);
            int total = RestJson.intOf(e, "totalTasks", 0);
            // totalTasks counts task starts; what neither completed, failed nor still runs was killed.
            int killed = Math.max(0, total - completed - failed - RestJson.intOf(e, "activeTasks", 0));
            ExecutorSums sum = sums.getOrDefault(id, new ExecutorSums());
            boolean onlyRunner = total > 0 && withTasks == 1;
            long runTime = total == 0 ? 0 : onlyRunner ? allTotals[TaskMetric.EXECUTOR_RUN_TIME.ordinal()] : -1;
            long cpuTime = total == 0 ? 0 : onlyRunner ? allTotals[TaskMetric.EXECUTOR_CPU_TIME.ordinal()] : -1;
            // For the driver Spark reports its JVM's GC time here instead of its tasks' (AppStatusStore).
            long gc = !driver ? RestJson.longOf(e, "totalGCTime", 0)
                    : total == 0 ? 0 : onlyRunner ? allTotals[TaskMetric.JVM_GC_TIME.ordinal()] : -1;
            Map<String, Long> peaks = peaks(e.path("peakMemoryMetrics"));
            long removeTime = RestJson.date(e, "removeTime");
            out.add(ExecutorSummary.builder().executorId(id).host(host(id, e, hostByExecutor))
                    .totalCores(RestJson.intOf(e, "totalCores", 0)).addTime(RestJson.date(e, "addTime"))
                    .removeTime(removeTime).removeReason(RestJson.text(e, "removeReason"))
                    .maxMemory(RestJson.longOf(e, "maxMemory", -1)).completedTasks(completed).failedTasks(failed)
                    .killedTasks(killed).totalDuration(sum.taskTime).totalRunTime(runTime).totalCpuTimeNs(cpuTime)
                    .totalGcTime(gc).inputBytes(RestJson.longOf(e, "totalInputBytes", 0))
                    .shuffleReadBytes(RestJson.longOf(e, "totalShuffleRead", 0))
                    .shuffleWriteBytes(RestJson.longOf(e, "totalShuffleWrite", 0))
                    .memoryBytesSpilled(sum.memorySpilled).diskBytesSpilled(sum.diskSpilled).peakMetrics(peaks)
                    .build());
        }
        // The recorder meets the driver first and executors as they are added.
        out.sort(Comparator.comparing((ExecutorSummary x) -> !x.isDriver()).thenComparingLong(ExecutorSummary::addTime)
                .thenComparing(ExecutorSummary::executorId));
        return out;
    }

    /**
     * Spark's peak executor metrics. All zeros is Spark's empty {@code ExecutorMetrics} (nothing was measured: a live
     * JVM never has a zero heap), which the recorder, seeing no metrics event, leaves empty too.
     */
    private static Map<String, Long> peaks(JsonNode node) {
        Map<String, Long> peaks = new TreeMap<>();
        boolean measured = false;
        for (var it = node.fields(); it.hasNext(); ) {
            var p = it.next();
            long v = p.getValue().asLong();
            peaks.put(p.getKey(), v);
            measured |= v != 0;
        }
        return measured ? peaks : Map.of();
    }

    /**
     * The host tasks ran on (the scheduler's executor host, which the recorder keeps), else the host of the block
     * manager's {@code hostPort} (can differ: e.g. {@code 127.0.0.1} vs {@code localhost}).
     */
    private static String host(String id, JsonNode e, Map<String, String> hostByExecutor) {
        String fromTask = hostByExecutor.get(id);
        if (fromTask != null) {
            return fromTask;
        }
        String hostPort = RestJson.text(e, "hostPort");
        if (hostPort == null) {
            return "";
        }
        int colon = hostPort.lastIndexOf(':');
        return colon > 0 && hostPort.substring(colon + 1).chars().allMatch(Character::isDigit)
                ? hostPort.substring(0, colon) : hostPort;
    }
}
