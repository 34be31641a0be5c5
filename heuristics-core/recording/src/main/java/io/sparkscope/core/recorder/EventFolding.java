package io.sparkscope.core.recorder;

import io.sparkscope.core.redact.Redactor;
import io.sparkscope.core.event.ExecutorPeaks;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.SparkEvent.ApplicationEnd;
import io.sparkscope.core.event.SparkEvent.ApplicationStart;
import io.sparkscope.core.event.SparkEvent.BlockManagerAdded;
import io.sparkscope.core.event.SparkEvent.DriverAccumUpdates;
import io.sparkscope.core.event.SparkEvent.EnvironmentUpdate;
import io.sparkscope.core.event.SparkEvent.ExecutorAdded;
import io.sparkscope.core.event.SparkEvent.ExecutorMetricsUpdate;
import io.sparkscope.core.event.SparkEvent.ExecutorRemoved;
import io.sparkscope.core.event.SparkEvent.JobEnd;
import io.sparkscope.core.event.SparkEvent.JobStart;
import io.sparkscope.core.event.SparkEvent.LogStart;
import io.sparkscope.core.event.SparkEvent.SqlAdaptivePlanUpdate;
import io.sparkscope.core.event.SparkEvent.SqlExecutionEnd;
import io.sparkscope.core.event.SparkEvent.SqlExecutionStart;
import io.sparkscope.core.event.SparkEvent.StageExecutorMetrics;
import io.sparkscope.core.event.SparkEvent.StreamingQueryIdle;
import io.sparkscope.core.event.SparkEvent.StreamingQueryProgress;
import io.sparkscope.core.event.SparkEvent.StreamingQueryStarted;
import io.sparkscope.core.event.SparkEvent.StreamingQueryTerminated;
import io.sparkscope.core.event.SparkEvent.StreamingQueryTrigger;
import io.sparkscope.core.event.SparkEvent.TaskEnd;
import io.sparkscope.core.event.SparkEvent.TaskStart;
import io.sparkscope.core.event.SparkEvent.Unknown;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.StreamingProgress;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary.JobStatus;
import io.sparkscope.core.model.SparkLine;
import io.sparkscope.core.model.StageSummary.StageStatus;
import io.sparkscope.core.model.TaskTimes;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.sparkscope.core.recorder.Recorder.gcTime;

/**
 * The live entities of one application attempt (its executors, jobs, stages, SQL executions and streaming query
 * runs) and how each event changes them, the way Spark's {@code AppStatusListener} folds listener events into its
 * live entities. {@link Recorder} decides which handler an event goes to; {@link RetentionWindow} lets old entities
 * go and {@link SnapshotAssembler} takes pictures of what is here. The handlers hold Spark's rules for odd input
 * (repeated lines, events out of order, ids never announced), which is why they are many and live together.
 *
 * <p>Fields are package-private so that the window and the assembler can read the same entities without copies;
 * only this class changes them, apart from the window removing what leaves.
 */
final class EventFolding {
    private static final Pattern LOCAL_MASTER = Pattern.compile("local(?:-cluster)?\\[(\\d+|\\*)(?:,\\s*\\d+)?]");

    private final RecorderOptions options;
    private final StreamingLimits streamingLimits;
    final double[] quantiles;

    String appId;
    String attemptId;
    String appName;
    String sparkUser;
    String sparkVersion;
    long startTime = -1;
    long endTime = -1;
    long lastEventTime = -1;
    boolean complete;
    /** An ApplicationStart or ApplicationEnd was seen: the id will not come later (see appIdOrPlaceholder). */
    private boolean announced;
    AppConfig config = AppConfig.EMPTY;
    long driverGcTimeMs = -1;
    long driverMaxMemory = -1;
    long eventCount;
    final Map<String, Long> unknownEventTypes = new TreeMap<>();

    final Map<String, LiveExecutor> executors = new LinkedHashMap<>();
    final Map<Integer, LiveJob> jobs = new TreeMap<>();
    /** Key: stageId << 32 | attemptId, so the map iterates in stage then attempt order. */
    final Map<Long, LiveStage> stages = new TreeMap<>();
    final Map<Integer, List<Integer>> jobIdsByStage = new HashMap<>();
    final Map<Long, LiveSqlExecution> sqlExecutions = new TreeMap<>();
    /**
     * Stage id → the running SQL execution that aggregates its tasks' SQL metric updates (the one whose job listed
     * it last, as in Spark). Entries go when the execution ends.
     */
    private final Map<Integer, LiveSqlExecution> sqlStageOwner = new HashMap<>();
    /**
     * Stage attempts a JobStart named that have not been submitted since, with their task counts: the ones Spark
     * holds as pending and counts as skipped in a job that ends before they run (a stage reused from an earlier job
     * is one, though its own attempt completed then).
     */
    private final Map<Long, Integer> pendingForJobs = new HashMap<>();
    /** Completed stages whose task values are still held, oldest first. */
    private final ArrayDeque<LiveStage> retainedCompleted = new ArrayDeque<>();
    private long retainedRows;
    /** Completed stages whose kept tasks count against the task-detail budget, oldest first. */
    private final ArrayDeque<LiveStage> detailCompleted = new ArrayDeque<>();
    private long detailRetained;
    /** Structured Streaming query runs by run id, in the order they were first seen. */
    final Map<String, LiveStreamingQuery> streamingQueries = new LinkedHashMap<>();
    /** Terminated runs, oldest first: past {@link StreamingLimits#retainedQueryRuns()} the oldest leaves. */
    private final ArrayDeque<LiveStreamingQuery> terminatedQueries = new ArrayDeque<>();

    /** Event count when the configuration last changed. */
    long configChange;
    /** SQL execution by the accumulator ids its plan declares, so a stage's metrics find theirs at once. */
    final Map<Long, LiveSqlExecution> sqlByMetricId = new HashMap<>();

    /** Set once, right after construction: the window and this class each need the other. */
    RetentionWindow window;

    EventFolding(RecorderOptions options, StreamingLimits streamingLimits) {
        this.options = options;
        this.streamingLimits = streamingLimits;
        this.quantiles = options.computedQuantiles();
    }

    /**
     * Spark's id; for events that announced the application (its start or end event) without naming it, a damaged
     * or very old log, {@link AppSnapshot#UNKNOWN_APP_ID}{@code -<start time>} ({@code unknown-app} without a start
     * time), so that it can be stored and shown under an id that says it is a placeholder. Readers that know better
     * (a log's file name holds the id) replace it ({@link AppSnapshot#withAppId}). Before either event the id stays
     * null: a live listener's snapshot taken before the application started is not one to store.
     */
    String appIdOrPlaceholder() {
        if (appId != null && !appId.isBlank()) {
            return appId;
        }
        if (!announced) {
            return null;
        }
        return startTime > 0 ? AppSnapshot.UNKNOWN_APP_ID + "-" + startTime : AppSnapshot.UNKNOWN_APP_ID;
    }

    private void seen(long time) {
        if (time > lastEventTime) {
            lastEventTime = time;
        }
    }

    /**
     * A second ApplicationStart replaces the first, as in Spark, except that a value it lacks (no id, no time) does
     * not erase one already known.
     */
    void onApplicationStart(ApplicationStart e) {
        announced = true;
        if (e.appName() != null) {
            appName = e.appName();
        }
        if (e.appId() != null && !e.appId().isBlank()) {
            appId = e.appId();
            attemptId = e.attemptId();
        } else if (e.attemptId() != null) {
            attemptId = e.attemptId();
        }
        if (e.sparkUser() != null) {
            sparkUser = e.sparkUser();
        }
        if (e.time() > 0) {
            startTime = e.time();
        }
        seen(e.time());
    }

    void onEnvironmentUpdate(EnvironmentUpdate e) {
        Redactor redactor = Redactor.forSparkProperties(e.sparkProperties());
        config = new AppConfig(redactor.redact(e.sparkProperties()), redactor.redact(e.jvmInformation()),
                redactor.redact(e.systemProperties()), redactor.redact(e.hadoopProperties()));
        // A local-mode driver runs the tasks; its cores come from the master URL when no ExecutorAdded says so.
        configChange = eventCount;
        LiveExecutor driver = executors.get("driver");
        if (driver != null && driver.totalCores == 0) {
            driver.totalCores = localCores();
            driver.changedAt(eventCount);
        }
    }

    private int localCores() {
        String master = config.sparkProperties().get("spark.master");
        if (master == null) {
            return 0;
        }
        Matcher m = LOCAL_MASTER.matcher(master);
        if (m.matches()) {
            if ("*".equals(m.group(1))) {
                return 0;
            }
            try {
                return Integer.parseInt(m.group(1));
            } catch (NumberFormatException tooLarge) {
                return 0; // "local[99999999999]" is no core count we can use
            }
        }
        return "local".equals(master) ? 1 : 0;
    }

    /**
     * The executor, created when new; marked changed by this event. One that left the dead-executor window comes back
     * detached: the late event is applied to a copy nobody keeps (it was written before it left).
     */
    private LiveExecutor executor(String id) {
        String key = id == null ? "unknown" : id;
        LiveExecutor ex = executors.get(key);
        if (ex == null && window.executorGone(key)) {
            return new LiveExecutor(key);
        }
        if (ex == null) {
            ex = new LiveExecutor(key);
            if ("driver".equals(key)) {
                ex.totalCores = localCores();
            }
            executors.put(key, ex);
        }
        ex.changedAt(eventCount);
        return ex;
    }

    /**
     * As Spark: a repeated ExecutorAdded of a live executor updates its host and cores but keeps when it came; one
     * after its removal (an executor the driver had given up on registering again) makes it alive again from then.
     * Spark would also start its task totals afresh; here they are kept, so the tasks it ran before stay counted.
     */
    void onExecutorAdded(ExecutorAdded e) {
        LiveExecutor ex = executor(e.executorId());
        if (ex.removeTime >= 0) {
            window.deadExecutorWindow.revived(ex);
        }
        if (ex.addTime < 0 || ex.removeTime >= 0) {
            ex.addTime = e.time();
            ex.removeTime = -1;
            ex.removeReason = null;
        }
        if (e.host() != null) {
            ex.host = e.host();
        }
        ex.totalCores = Math.max(0, e.totalCores());
        ex.added = true;
        seen(e.time());
    }

    /** As Spark: only a known, live executor is removed; a repeated removal keeps the first time and reason. */
    void onExecutorRemoved(ExecutorRemoved e) {
        LiveExecutor ex = executors.get(e.executorId() == null ? "unknown" : e.executorId());
        if (ex != null && ex.removeTime < 0) {
            ex.removeTime = e.time();
            ex.removeReason = e.reason();
            ex.changedAt(eventCount);
            window.deadExecutorWindow.ended(ex, false);
        }
        seen(e.time());
    }

    void onBlockManagerAdded(BlockManagerAdded e) {
        if ("driver".equals(e.executorId()) || "<driver>".equals(e.executorId())) {
            driverMaxMemory = e.maxMemory();
        }
        // Spark 1.x named the driver "<driver>"; treat it as "driver" like today's Spark.
        String id = "<driver>".equals(e.executorId()) ? "driver" : e.executorId();
        LiveExecutor ex = executor(id);
        ex.maxMemory = e.maxMemory();
        if (e.host() != null && e.port() >= 0) {
            ex.hostPort = e.host() + ":" + e.port();
        }
        if (e.maxOnHeapMemory() >= 0) {
            ex.maxOnHeapMemory = e.maxOnHeapMemory();
            ex.maxOffHeapMemory = Math.max(0, e.maxOffHeapMemory());
        }
        if (ex.host.isEmpty() && e.host() != null) {
            ex.host = e.host();
        }
        if (ex.addTime < 0) {
            ex.addTime = e.time();
        }
        seen(e.time());
    }

    /**
     * Executor peaks reach an executor from three places, merged as Spark's History Server merges them into
     * {@code peakMemoryMetrics}: each task end's sample, the per-stage peaks the log holds with
     * {@code spark.eventLog.logStageExecutorMetrics}, and (live) every heartbeat. Spark drops a task end's or a
     * heartbeat's sample for an executor already removed; here it still counts, since it was measured on it.
     */
    void onStageExecutorMetrics(StageExecutorMetrics e) {
        executor(e.executorId()).peaks(e.peaks());
        if ("driver".equals(e.executorId())) {
            driverGc(gcTime(e.peaks()));
        }
    }

    void onExecutorMetricsUpdate(ExecutorMetricsUpdate e) {
        if (e.peaks() == null || e.peaks() == ExecutorPeaks.NONE) {
            return;
        }
        executor(e.executorId()).peaks(e.peaks());
        // A heartbeat before the driver measured anything says nothing of its GC time.
        if ("driver".equals(e.executorId()) && !e.peaks().measuredNothing()) {
            driverGc(gcTime(e.peaks().asMap()));
        }
    }

    private void driverGc(long gc) {
        if (gc >= 0) {
            driverGcTimeMs = Math.max(driverGcTimeMs, gc);
        }
    }

    static long stageKey(int stageId, int attemptId) {
        return ((long) stageId << 32) | (attemptId & 0xffffffffL);
    }

    /**
     * The stage attempt, created when new, marked changed by this event; null for an event about a stage that left
     * the window (a late task end, a job naming a stage computed long ago): it is written and stays as it was.
     */
    private LiveStage stage(int stageId, int attemptId) {
        return stage(stageId, attemptId, false);
    }

    /** @param submitted a StageSubmitted: a new attempt of a stage whose earlier attempt left is created */
    private LiveStage stage(int stageId, int attemptId, boolean submitted) {
        long key = stageKey(stageId, attemptId);
        LiveStage s = stages.get(key);
        if (s == null) {
            if (!submitted && window.stageGone(stageId)) {
                return null;
            }
            s = new LiveStage(stageId, attemptId, options);
            List<Integer> jobIds = jobIdsByStage.get(stageId);
            if (jobIds != null) {
                s.jobIds.addAll(jobIds);
            }
            stages.put(key, s);
        }
        s.changedAt(eventCount);
        return s;
    }

    /**
     * A repeated JobStart of a known job is ignored: Spark would replace the job, so a duplicated line after its end
     * would leave it running forever.
     */
    void onJobStart(JobStart e) {
        if (jobs.containsKey(e.jobId()) || window.jobGone(e.jobId())) {
            seen(e.submissionTime());
            return;
        }
        LiveJob job = new LiveJob(e.jobId());
        job.changedAt(eventCount);
        jobs.put(e.jobId(), job);
        job.submissionTime = e.submissionTime();
        job.stageIds = e.stageIds();
        job.status = JobStatus.RUNNING;
        Map<String, String> props = e.properties();
        job.description = props.get("spark.job.description");
        job.jobGroup = props.get("spark.jobGroup.id");
        job.jobTags = jobTags(props.get("spark.job.tags"));
        String sqlId = props.get("spark.sql.execution.id");
        if (sqlId != null) {
            try {
                job.sqlExecutionId = Long.parseLong(sqlId.trim());
                // As Spark's SQL listener: a job joins an execution its start announced, and never makes one (a log
                // without SQLExecutionStart events lists no SQL executions in Spark's UI).
                LiveSqlExecution sql = sqlExecutions.get(job.sqlExecutionId);
                if (sql != null) {
                    sql.changedAt(eventCount);
                    sql.jobIds.add(e.jobId());
                    for (int stageId : sql.jobStarted(e.stageIds(), e.stageInfos())) {
                        sqlStageOwner.put(stageId, sql);
                    }
                }
            } catch (NumberFormatException ignored) {
                // not a SQL job id we can link; the job stands on its own
            }
        }
        // Spark names a job after its last stage and counts the tasks of stages still to run.
        StageInfo last = null;
        long numTasks = 0;
        for (StageInfo info : e.stageInfos()) {
            if (last == null || info.stageId() > last.stageId()) {
                last = info;
            }
            if (info.completionTime() <= 0) {
                numTasks += Math.max(0, info.numTasks());
            }
        }
        job.name = last != null && last.name() != null ? last.name() : "";
        job.numTasks = (int) Math.min(Integer.MAX_VALUE, numTasks);
        for (int stageId : e.stageIds()) {
            jobIdsByStage.computeIfAbsent(stageId, k -> new ArrayList<>(1)).add(e.jobId());
        }
        for (StageInfo info : e.stageInfos()) {
            LiveStage s = stage(info.stageId(), info.attemptId());
            if (s == null) {
                // An attempt that completed and left the window long ago: Spark holds it as pending for this job
                // (and counts it skipped if the job ends before it runs again), as it would a closed one still here.
                pendingForJobs.put(stageKey(info.stageId(), info.attemptId()), Math.max(0, info.numTasks()));
                continue;
            }
            s.jobIds.add(e.jobId());
            if (s.status == StageStatus.PENDING) {
                s.update(info);
            }
            if (!s.closed) {
                s.countingJobs.add(job);
            }
            if (s.closed || s.status == StageStatus.PENDING) {
                pendingForJobs.put(stageKey(info.stageId(), info.attemptId()), Math.max(0, info.numTasks()));
            }
        }
        // Every attempt of the job's stages belongs to it: a range of the sorted map per stage id, not a scan of all
        // stages (which made each job start cost as much as the whole application had so far).
        for (int stageId : e.stageIds()) {
            for (LiveStage s : stagesOf(stageId)) {
                if (s.jobIds.add(e.jobId())) {
                    s.changedAt(eventCount);
                }
            }
        }
        seen(e.submissionTime());
    }

    /** As Spark: the end of a job never started, or already ended, changes nothing. */
    void onJobEnd(JobEnd e) {
        seen(e.completionTime());
        LiveJob job = jobs.get(e.jobId());
        if (job == null || job.ended) {
            return;
        }
        job.ended = true;
        job.changedAt(eventCount);
        for (var it = pendingForJobs.entrySet().iterator(); it.hasNext(); ) {
            var pending = it.next();
            int stageId = (int) (pending.getKey() >> 32);
            if (job.stageIds.contains(stageId)) {
                job.stageSkipped(stageId, pending.getValue(), !SparkLine.atLeast(sparkVersion, 3, 4));
                it.remove();
            }
        }
        job.completionTime = e.completionTime();
        job.status = e.succeeded() ? JobStatus.SUCCEEDED : JobStatus.FAILED;
        job.failureReason = e.failureReason();
        // Stages a finished job never ran are skipped (Spark marks them so at job end).
        for (int stageId : job.stageIds) {
            for (LiveStage s : stagesOf(stageId)) {
                if (s.status == StageStatus.PENDING) {
                    s.skipped();
                    s.releaseValues(quantiles);
                    s.changedAt(eventCount);
                    if (!s.completedOnce) {
                        s.completedOnce = true;
                        window.stageWindow.ended(s, false);
                    }
                }
            }
        }
        settleIfDone(job);
        window.jobWindow.ended(job, job.status == JobStatus.FAILED);
        window.evict();
    }

    /** Spark's job tags: the comma-separated {@code spark.job.tags} property, without empty ones, sorted. */
    private static List<String> jobTags(String property) {
        if (property == null || property.isEmpty()) {
            return List.of();
        }
        java.util.TreeSet<String> tags = new java.util.TreeSet<>();
        for (String t : property.split(",")) {
            if (!t.isEmpty()) {
                tags.add(t);
            }
        }
        return List.copyOf(tags);
    }

    private List<LiveStage> stagesOf(int stageId) {
        List<LiveStage> out = new ArrayList<>(1);
        for (LiveStage s : ((TreeMap<Long, LiveStage>) stages)
                .subMap(stageKey(stageId, 0), true, stageKey(stageId, Integer.MAX_VALUE), true).values()) {
            out.add(s);
        }
        return out;
    }

    /**
     * A submission of a stage attempt that already completed is a repeated line (a retry has a new attempt id): it
     * is ignored. Spark would set the attempt active again, or start it afresh once forgotten.
     */
    void onStageSubmitted(StageInfo info) {
        seen(info.submissionTime());
        LiveStage s = stage(info.stageId(), info.attemptId(), true);
        if (s.completedOnce || s.closed) {
            return;
        }
        s.update(info);
        s.status = StageStatus.ACTIVE;
        LiveSqlExecution sql = sqlStageOwner.get(info.stageId());
        if (sql != null && sql.stageSubmitted(info.stageId(), info.attemptId())) {
            sql.changedAt(eventCount);
        }
        // As Spark: the stage's task ends count in the jobs still running that name it.
        pendingForJobs.remove(stageKey(info.stageId(), info.attemptId()));
        s.countingJobs.clear();
        // The jobs naming the stage, looked up by its id: a scan of every job held would cost as much as the window.
        List<Integer> namedBy = jobIdsByStage.get(info.stageId());
        if (namedBy != null) {
            for (int jobId : new java.util.TreeSet<>(namedBy)) {
                LiveJob job = jobs.get(jobId);
                if (job != null && !job.ended) {
                    s.countingJobs.add(job);
                    job.stageSubmitted(info.stageId());
                    job.changedAt(eventCount);
                }
            }
        }
    }

    /**
     * As Spark: a completion of a closed stage attempt (completed, no task running) changes nothing; a repeated one
     * while tasks still run updates it again. Either way it enters the retention queues once.
     */
    void onStageCompleted(StageInfo info) {
        seen(info.completionTime());
        LiveStage s = stage(info.stageId(), info.attemptId());
        if (s == null || s.closed) {
            return;
        }
        s.completed(info);
        collectSqlMetrics(info);
        if (s.completedOnce) {
            return;
        }
        s.completedOnce = true;
        pendingForJobs.remove(stageKey(info.stageId(), info.attemptId()));
        for (LiveJob job : s.countingJobs) {
            job.stageCompleted(info.stageId(), info.failureReason() != null, s.submissionTime > 0, s.numTasks);
            job.changedAt(eventCount);
        }
        window.stageWindow.ended(s, s.status == StageStatus.FAILED);
        if (s.closed) {
            // No task runs and none will count any more: the values have served; keep their distribution only.
            s.releaseValues(quantiles);
            for (LiveJob job : s.countingJobs) {
                settleIfDone(job);
            }
        } else {
            retainedCompleted.addLast(s);
            retainedRows += s.valueRows();
        }
        while (retainedRows > options.retainedCompletedTasks() && !retainedCompleted.isEmpty()) {
            LiveStage oldest = retainedCompleted.pollFirst();
            retainedRows -= oldest.valueRows();
            oldest.releaseValues(quantiles);
        }
        if (!s.countedInDetailBudget) {
            s.countedInDetailBudget = true;
            detailCompleted.addLast(s);
            detailRetained += s.keptTasks();
            while (detailRetained > options.retainedDetailTasks() && !detailCompleted.isEmpty()) {
                LiveStage oldest = detailCompleted.pollFirst();
                detailRetained -= oldest.keptTasks();
                // What remains (≤ THINNED_TASKS_PER_STAGE) is the stated per-stage floor, outside the budget.
                oldest.thinTasks(Math.min(options.tasksPerStage(), RecorderOptions.THINNED_TASKS_PER_STAGE));
            }
        }
        window.evict();
    }

    private void collectSqlMetrics(StageInfo info) {
        if (sqlByMetricId.isEmpty() || info.accumulables().isEmpty()) {
            return;
        }
        for (StageInfo.Accumulable acc : info.accumulables()) {
            LiveSqlExecution sql = sqlByMetricId.get(acc.id());
            if (sql != null) {
                sql.stageAccumulable(info.stageId(), acc.id());
                sql.changedAt(eventCount);
                Long value = parseLong(acc.value());
                if (value != null) {
                    sql.metricValues.put(acc.id(), value);
                }
            }
        }
    }

    private static Long parseLong(String s) {
        if (s == null) {
            return null;
        }
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    void onTaskStart(TaskStart e) {
        LiveStage s = stage(e.stageId(), e.stageAttemptId());
        if (s != null) {
            if (!s.closed) {
                for (LiveJob job : s.countingJobs) {
                    job.taskStarted();
                    job.changedAt(eventCount);
                }
            }
            s.taskStarted(e.taskInfo());
        }
        LiveExecutor ex = executors.get(e.taskInfo().executorId());
        if (ex != null) {
            ex.taskStarted();
            ex.changedAt(eventCount);
        }
        seen(e.taskInfo().launchTime());
    }

    void onTaskEnd(TaskEnd e) {
        LiveStage s = stage(e.stageId(), e.stageAttemptId());
        if (s == null) {
            return; // its stage left the window long after it closed: Spark's status store would ignore it too
        }
        LiveStage.EndCount counted = s.taskEnded(e.reason(), e.taskInfo(), e.metrics());
        if (counted == LiveStage.EndCount.COUNTED) {
            for (LiveJob job : s.countingJobs) {
                job.taskEnded(e.stageId(), e.taskInfo().index(), e.reason());
                job.changedAt(eventCount);
            }
            if (s.closed) {
                stageClosed(s);
            }
        }
        LiveExecutor ex = executor(e.taskInfo().executorId());
        // A repeated line counts on no executor either; past the attempt's close repeats can no longer be told
        // apart, and the end counts there as Spark counts it.
        if (counted != LiveStage.EndCount.DUPLICATE) {
            ex.taskEnded(e.reason(), e.taskInfo(), e.metrics());
        }
        ex.taskEndPeaks(e.executorMetrics());
        if (!sqlStageOwner.isEmpty()) {
            LiveSqlExecution sql = sqlStageOwner.get(e.stageId());
            if (sql != null) {
                TaskInfo info = e.taskInfo();
                if (sql.taskEnded(e.stageId(), e.stageAttemptId(), info.taskId(), info.index(), info.successful(),
                        e.accumUpdates())) {
                    sql.changedAt(eventCount);
                }
            }
        }
        // An impossible span says one of the two times is wrong: neither moves the application's clock.
        if (TaskTimes.known(e.taskInfo().launchTime(), e.taskInfo().finishTime())) {
            seen(e.taskInfo().finishTime());
        }
    }

    /**
     * A stage attempt closed (completed or skipped, no task running): nothing will count in it any more. Its values
     * have served, and an ended job whose stages have all closed no longer needs its completed-index set.
     */
    private void stageClosed(LiveStage s) {
        if (s.completedOnce && s.valueRows() > 0) {
            if (retainedCompleted.remove(s)) {
                retainedRows -= s.valueRows();
            }
            s.releaseValues(quantiles);
        }
        for (LiveJob job : s.countingJobs) {
            settleIfDone(job);
        }
    }

    /**
     * As Spark, a task of the job's stages that ends after the job (a speculative copy, a task of a stage another
     * job shares) still counts in it, its completed index too; once the job has ended and every stage attempt it
     * counts has closed, no task can, and its set of completed indices is reduced to their count.
     */
    private void settleIfDone(LiveJob job) {
        if (!job.ended || job.settled()) {
            return;
        }
        for (int stageId : job.stageIds) {
            for (LiveStage st : stagesOf(stageId)) {
                if (!st.closed && st.countingJobs.contains(job)) {
                    return;
                }
            }
        }
        job.settle();
    }

    /** The SQL execution, created when new, marked changed; null when it left the window (it ended long ago). */
    private LiveSqlExecution sql(long id) {
        LiveSqlExecution sql = sqlExecutions.get(id);
        if (sql == null) {
            if (window.sqlExecutionGone(id)) {
                return null;
            }
            sql = new LiveSqlExecution(id);
            sqlExecutions.put(id, sql);
        }
        sql.changedAt(eventCount);
        return sql;
    }

    private void plan(LiveSqlExecution sql, String description, SparkEvent.PlanNode root) {
        sql.plan(description, root);
        if (root != null) {
            for (Long id : sql.metricIds) {
                sqlByMetricId.put(id, sql);
            }
        }
    }

    /**
     * As Spark: the end of an execution never started (no SQLExecutionStart, no adaptive plan update) changes
     * nothing, and a repeated end keeps the first one's time and error.
     */
    void onSqlEnd(SqlExecutionEnd e) {
        seen(e.time());
        LiveSqlExecution sql = sqlExecutions.get(e.executionId());
        if (sql == null || sql.ended) {
            return;
        }
        sql.endTime = e.time();
        sql.errorMessage = e.errorMessage();
        for (Integer stageId : sql.trackedStages()) {
            sqlStageOwner.remove(stageId, sql);
        }
        sql.end();
        sql.ended = true;
        sql.changedAt(eventCount);
        window.sqlWindow.ended(sql, sql.errorMessage != null && !sql.errorMessage.isEmpty());
        window.evict();
    }

    void onSqlStart(SqlExecutionStart e) {
        seen(e.time());
        LiveSqlExecution sql = sql(e.executionId());
        if (sql == null) {
            return;
        }
        sql.description = e.description();
        sql.startTime = e.time();
        plan(sql, e.physicalPlanDescription(), e.plan());
    }

    void onDriverAccumUpdates(DriverAccumUpdates e) {
        LiveSqlExecution sql = sqlExecutions.get(e.executionId());
        if (sql != null) {
            sql.changedAt(eventCount);
            for (SparkEvent.AccumUpdate u : e.updates()) {
                if (sql.metricIds.contains(u.accumulatorId())) {
                    sql.metricValues.put(u.accumulatorId(), u.value());
                    sql.driverUpdate(u.accumulatorId(), u.value());
                }
            }
        }
    }

    private LiveStreamingQuery streamingQuery(String runId, String queryId) {
        LiveStreamingQuery q = streamingQueries.get(runId);
        if (q == null) {
            q = new LiveStreamingQuery(runId, queryId, streamingLimits.batchesPerQuery());
            streamingQueries.put(runId, q);
        }
        // every caller is about to change the run
        q.changedAt(eventCount);
        return q;
    }

    void onStreamingProgress(StreamingQueryProgress e) {
        StreamingProgress p = e.progress();
        streamingQuery(p.runId(), p.queryId()).progress(p);
        // Spark posts the report when the trigger ends
        seen(p.timestamp() > 0 && p.batchDurationMs() > 0 ? p.timestamp() + p.batchDurationMs() : p.timestamp());
    }

    /**
     * Spark's terminated event carries no time, so the run ends at the newest time seen: the same live and from the
     * log, since both see the events in the order Spark posted them.
     */
    void onStreamingTerminated(StreamingQueryTerminated e) {
        LiveStreamingQuery q = streamingQuery(e.runId(), e.queryId());
        if (q.terminated) {
            return;
        }
        q.terminated(e.exception(), e.errorClass(), lastEventTime);
        terminatedQueries.addLast(q);
        while (terminatedQueries.size() > streamingLimits.retainedQueryRuns()) {
            streamingQueries.remove(terminatedQueries.pollFirst().runId);
        }
    }

    /** Stage attempts currently holding task values (running or recently completed). */
    int stagesHoldingValues() {
        int n = 0;
        for (LiveStage s : stages.values()) {
            if (s.valueRows() > 0) {
                n++;
            }
        }
        return n;
    }

    void onApplicationEnd(ApplicationEnd e) {
        announced = true;
        endTime = e.time() > 0 ? e.time() : -1;
        complete = true;
        seen(e.time());
    }

    void onLogStart(LogStart e) {
        sparkVersion = e.sparkVersion();
    }

    void onSqlAdaptivePlanUpdate(SqlAdaptivePlanUpdate e) {
        LiveSqlExecution sql = sql(e.executionId());
        if (sql != null) {
            plan(sql, e.physicalPlanDescription(), e.plan());
        }
    }

    void onStreamingIdle(StreamingQueryIdle e) {
        streamingQuery(e.runId(), e.queryId()).idle(e.time());
        seen(e.time());
    }

    void onStreamingStarted(StreamingQueryStarted e) {
        streamingQuery(e.runId(), e.queryId()).started(e.queryId(), e.name(), e.time());
        seen(e.time());
    }

    void onStreamingTrigger(StreamingQueryTrigger e) {
        // looked up after the start: a run that already left the recorder is not brought back
        LiveStreamingQuery q = streamingQueries.get(e.runId());
        if (q != null) {
            q.trigger(e.kind(), e.intervalMs());
            q.changedAt(eventCount);
        }
    }

    void onUnknown(Unknown e) {
        unknownEventTypes.merge(e.type(), 1L, Long::sum);
    }

    /** A stage attempt left the window: its task values and kept tasks no longer count against the budgets. */
    void leftBudgets(LiveStage s) {
        if (retainedCompleted.remove(s)) {
            retainedRows -= s.valueRows();
        }
        if (detailCompleted.remove(s)) {
            detailRetained -= s.keptTasks();
        }
    }
}
