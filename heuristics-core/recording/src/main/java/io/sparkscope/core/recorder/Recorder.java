package io.sparkscope.core.recorder;

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
import io.sparkscope.core.event.SparkEvent.StageCompleted;
import io.sparkscope.core.event.SparkEvent.StageExecutorMetrics;
import io.sparkscope.core.event.SparkEvent.StageSubmitted;
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
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.JobSummary.JobStatus;
import io.sparkscope.core.model.RunTotals;
import io.sparkscope.core.model.SparkLine;
import io.sparkscope.core.model.TaskSpanSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageSummary.StageStatus;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.redact.Redactor;
import io.sparkscope.core.redact.SnapshotRedactor;
import io.sparkscope.core.model.TaskTimes;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Folds {@link SparkEvent}s of one application attempt into an {@link AppSnapshot}, the way Spark's
 * {@code AppStatusListener} folds listener events into its status store: mutable live entities in, immutable
 * snapshots out. The live listener and the event-log reader both feed it, so both give the same snapshot.
 *
 * <p>Not thread-safe: one thread feeds it and takes snapshots.
 *
 * <p>Memory: per stage attempt in flight, one row of {@link RecorderOptions#BYTES_PER_TASK_ROW} bytes per successful
 * task, at most {@link RecorderOptions#exactTaskLimit()} rows (past it a uniform sample); completed stages keep their
 * rows until together they exceed {@link RecorderOptions#retainedCompletedTasks()}, then the oldest are reduced to
 * their quantiles. Besides, task records kept in detail: per stage attempt every task up to
 * {@link RecorderOptions#tasksPerStage()} (past it the slowest half and a uniform sample), plus up to
 * {@code failedTasksPerStage} failed ones; once completed stages together keep more than
 * {@link RecorderOptions#retainedDetailTasks()}, the oldest are thinned to their slowest
 * {@link RecorderOptions#THINNED_TASKS_PER_STAGE} ({@link RecorderOptions#detailBytesBound}). And per stage attempt
 * still open, the ids of its started and ended tasks and its completed partition indices ({@link SparseBits}: about a
 * bit per id for Spark's dense ids, at most {@link SparseBits#BYTES_PER_BLOCK} bytes per scattered one), freed when
 * the attempt has completed and no task of it runs.
 *
 * <p>Long-running applications: with a window ({@link RecorderOptions#withWindow}), completed jobs, stages and SQL
 * executions past the window leave once a snapshot holding them was written ({@link #written}); they live on in the
 * database and in running totals ({@link RunTotals}), which every snapshot carries, so application-wide numbers stay
 * those of the whole run. An {@link EvictionListener} gets a last look at each stage and SQL execution leaving, so
 * that findings about it alone can be kept. Every entity records when it last changed ({@link LiveEntity}), and
 * {@link #snapshots} gives, besides the retained entities, only those changed since the last written snapshot: the
 * work and bytes of a periodic write follow what changed, not how long the application has run.
 *
 * <p>A task id that ends twice, and every entity announced twice, is handled as Spark's {@code AppStatusListener}
 * handles it ({@link LiveStage#taskEnded}, the event methods below), so that the History Server's numbers stay
 * Spark's; where Spark's own bookkeeping would break on such input (a running-task count below zero, a job or
 * stage reopened by a repeated line, a repeated task-end line counted as one more task) it is not copied, and the
 * method says so.
 */
public final class Recorder {
    private static final Pattern LOCAL_MASTER = Pattern.compile("local(?:-cluster)?\\[(\\d+|\\*)(?:,\\s*\\d+)?]");

    private final RecorderOptions options;
    private final StreamingLimits streamingLimits;
    private final double[] quantiles;

    private String appId;
    private String attemptId;
    private String appName;
    private String sparkUser;
    private String sparkVersion;
    private long startTime = -1;
    private long endTime = -1;
    private long lastEventTime = -1;
    private boolean complete;
    /** An ApplicationStart or ApplicationEnd was seen: the id will not come later (see appIdOrPlaceholder). */
    private boolean announced;
    private AppConfig config = AppConfig.EMPTY;
    private long driverGcTimeMs = -1;
    private long driverMaxMemory = -1;
    private long eventCount;
    private final Map<String, Long> unknownEventTypes = new TreeMap<>();

    private final Map<String, LiveExecutor> executors = new LinkedHashMap<>();
    private final Map<Integer, LiveJob> jobs = new TreeMap<>();
    /** Key: stageId << 32 | attemptId, so the map iterates in stage then attempt order. */
    private final Map<Long, LiveStage> stages = new TreeMap<>();
    private final Map<Integer, List<Integer>> jobIdsByStage = new HashMap<>();
    private final Map<Long, LiveSqlExecution> sqlExecutions = new TreeMap<>();
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
    private final Map<String, LiveStreamingQuery> streamingQueries = new LinkedHashMap<>();
    /** Terminated runs, oldest first: past {@link StreamingLimits#retainedQueryRuns()} the oldest leaves. */
    private final ArrayDeque<LiveStreamingQuery> terminatedQueries = new ArrayDeque<>();

    /** Event count of the newest snapshot known to be written; set by the writer's thread. */
    private final AtomicLong writtenUpTo = new AtomicLong(-1);
    /** Event count when the configuration last changed. */
    private long configChange;
    private final Window<LiveJob> jobWindow;
    private final Window<LiveStage> stageWindow;
    private final Window<LiveSqlExecution> sqlWindow;
    /** Removed executors: an elastic application may add and remove executors by the hundred thousand. */
    private final Window<LiveExecutor> deadExecutorWindow;
    /**
     * Ids of executors that left, so a late event for one cannot bring it back as a new, empty executor: Spark's
     * numeric ids as bits (about a bit each), any other id as text.
     */
    private final SparseBits goneExecutorNumbers = new SparseBits();
    private final Set<String> goneExecutorNames = new HashSet<>();
    private int executorsGone;
    private long goneExecutorTaskMs;
    /** Totals of the entities that left the window. */
    private final RunTotals.Accumulator gone = new RunTotals.Accumulator();
    private final TaskSpanSummary.Builder goneSpans = new TaskSpanSummary.Builder();
    private int jobsGone;
    private int stagesGone;
    private int sqlGone;
    /** Ids that left, so a late or repeated event cannot bring back a phantom (about a bit per id). */
    private final SparseBits goneJobIds = new SparseBits();
    private final SparseBits goneStageIds = new SparseBits();
    private final SparseBits goneSqlIds = new SparseBits();
    /** SQL execution by the accumulator ids its plan declares, so a stage's metrics find theirs at once. */
    private final Map<Long, LiveSqlExecution> sqlByMetricId = new HashMap<>();
    private EvictionListener evictionListener;
    /** Summaries of entities that left since the last hand-over, for the listener's next last look. */
    private final List<StageSummary> leavingStages = new ArrayList<>();
    private final List<SqlExecutionSummary> leavingSql = new ArrayList<>();
    /** The redactor of {@link #config}, made again only when the configuration changes. */
    private AppConfig redactorConfig;
    private SnapshotRedactor redactor;

    public Recorder() {
        this(RecorderOptions.DEFAULTS);
    }

    public Recorder(RecorderOptions options) {
        this(options, StreamingLimits.DEFAULTS);
    }

    public Recorder(RecorderOptions options, StreamingLimits streamingLimits) {
        this.options = options;
        this.streamingLimits = streamingLimits;
        this.quantiles = options.computedQuantiles();
        this.jobWindow = new Window<>(options.retainedJobs());
        this.stageWindow = new Window<>(options.retainedStages());
        this.sqlWindow = new Window<>(options.retainedSqlExecutions());
        this.deadExecutorWindow = new Window<>(options.retainedDeadExecutors());
    }

    /**
     * Gets a last look at the stage attempts and SQL executions leaving the window: a snapshot holding leaving
     * entities of one kind (stages, or SQL executions) with the application's configuration, executors and times (and
     * nothing else), taken on the recording thread. Entities that left are handed over together, at each snapshot
     * (each flush of a live recorder) or once as many as the window's limit (at most {@link #LEAVING_BATCH}) wait:
     * running the heuristics once on a few hundred stages costs little more than on one, while a look per entity
     * repeated the fixed cost of a diagnosis for each. The look shows the application as it stands at the hand-over
     * (a little later than when each entity left). The listener keeps the findings about them from there.
     */
    public interface EvictionListener {
        void leaving(AppSnapshot lastLook);
    }

    /**
     * Most entities in one last look, and fewer when the window's limit is smaller: what waits for the listener is at
     * most one limit of each kind beside the window's own (at most twice the limit), within
     * {@link RecorderOptions#windowBytesBound()}.
     */
    public static final int LEAVING_BATCH = 256;

    public void setEvictionListener(EvictionListener listener) {
        this.evictionListener = listener;
    }

    /**
     * The snapshot taken at {@code eventCount} (its {@link AppSnapshot#eventCount()}) is written: what it held is
     * clean, and completed entities it held may leave the window. Any thread may call it (the writer's does).
     */
    public void written(long eventCount) {
        writtenUpTo.accumulateAndGet(eventCount, Math::max);
    }

    /** Entities that left the window before they could be written (the database was away too long). */
    public long leftUnwritten() {
        return jobWindow.leftUnwritten() + stageWindow.leftUnwritten() + sqlWindow.leftUnwritten()
                + deadExecutorWindow.leftUnwritten();
    }

    /**
     * Whether a window holds half a limit more ended entities than its limit: a reader with nobody to take periodic
     * snapshots (an event log read offline) asks after each event and, when true, writes what changed
     * ({@link #snapshots}) or calls {@link #written}, and then {@link #release}, so that the windows bound its memory
     * as the listener's flushes bound the driver's, and nothing leaves unwritten while the writes succeed.
     */
    public boolean overWindow() {
        return options.windowed() && (jobWindow.over() || stageWindow.over() || sqlWindow.over()
                || deadExecutorWindow.over());
    }

    /** Lets the written entities past the windows leave now, without a snapshot (see {@link #overWindow}). */
    public void release() {
        evict();
    }

    public RecorderOptions options() {
        return options;
    }

    /** Applies one event. Never throws for odd but well-formed events (unknown ids, out-of-order ends). */
    public void onEvent(SparkEvent event) {
        eventCount++;
        // Java 17 has no pattern switch; the most frequent events are tested first.
        if (event instanceof TaskEnd e) {
            onTaskEnd(e);
        } else if (event instanceof TaskStart e) {
            onTaskStart(e);
        } else if (event instanceof StageSubmitted e) {
            onStageSubmitted(e.stage());
        } else if (event instanceof StageCompleted e) {
            onStageCompleted(e.stage());
        } else if (event instanceof JobStart e) {
            onJobStart(e);
        } else if (event instanceof JobEnd e) {
            onJobEnd(e);
        } else if (event instanceof ExecutorAdded e) {
            onExecutorAdded(e);
        } else if (event instanceof ExecutorRemoved e) {
            onExecutorRemoved(e);
        } else if (event instanceof BlockManagerAdded e) {
            onBlockManagerAdded(e);
        } else if (event instanceof ExecutorMetricsUpdate e) {
            onExecutorMetricsUpdate(e);
        } else if (event instanceof StageExecutorMetrics e) {
            onStageExecutorMetrics(e);
        } else if (event instanceof EnvironmentUpdate e) {
            onEnvironmentUpdate(e);
        } else if (event instanceof ApplicationStart e) {
            onApplicationStart(e);
        } else if (event instanceof ApplicationEnd e) {
            announced = true;
            endTime = e.time() > 0 ? e.time() : -1;
            complete = true;
            seen(e.time());
        } else if (event instanceof LogStart e) {
            sparkVersion = e.sparkVersion();
        } else if (event instanceof SqlExecutionStart e) {
            onSqlStart(e);
        } else if (event instanceof SqlExecutionEnd e) {
            onSqlEnd(e);
        } else if (event instanceof SqlAdaptivePlanUpdate e) {
            LiveSqlExecution sql = sql(e.executionId());
            if (sql != null) {
                plan(sql, e.physicalPlanDescription(), e.plan());
            }
        } else if (event instanceof DriverAccumUpdates e) {
            onDriverAccumUpdates(e);
        } else if (event instanceof StreamingQueryProgress e) {
            onStreamingProgress(e);
        } else if (event instanceof StreamingQueryIdle e) {
            streamingQuery(e.runId(), e.queryId()).idle(e.time());
            seen(e.time());
        } else if (event instanceof StreamingQueryStarted e) {
            streamingQuery(e.runId(), e.queryId()).started(e.queryId(), e.name(), e.time());
            seen(e.time());
        } else if (event instanceof StreamingQueryTerminated e) {
            onStreamingTerminated(e);
        } else if (event instanceof StreamingQueryTrigger e) {
            // looked up after the start: a run that already left the recorder is not brought back
            LiveStreamingQuery q = streamingQueries.get(e.runId());
            if (q != null) {
                q.trigger(e.kind(), e.intervalMs());
                q.changedAt(eventCount);
            }
        } else if (event instanceof Unknown e) {
            unknownEventTypes.merge(e.type(), 1L, Long::sum);
        }
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
    private void onApplicationStart(ApplicationStart e) {
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

    private void onEnvironmentUpdate(EnvironmentUpdate e) {
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
        if (ex == null && executorsGone > 0 && executorGone(key)) {
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
    private void onExecutorAdded(ExecutorAdded e) {
        LiveExecutor ex = executor(e.executorId());
        if (ex.removeTime >= 0) {
            deadExecutorWindow.revived(ex);
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
    private void onExecutorRemoved(ExecutorRemoved e) {
        LiveExecutor ex = executors.get(e.executorId() == null ? "unknown" : e.executorId());
        if (ex != null && ex.removeTime < 0) {
            ex.removeTime = e.time();
            ex.removeReason = e.reason();
            ex.changedAt(eventCount);
            deadExecutorWindow.ended(ex, false);
        }
        seen(e.time());
    }

    private void onBlockManagerAdded(BlockManagerAdded e) {
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
    private void onStageExecutorMetrics(StageExecutorMetrics e) {
        executor(e.executorId()).peaks(e.peaks());
        if ("driver".equals(e.executorId())) {
            driverGc(gcTime(e.peaks()));
        }
    }

    private void onExecutorMetricsUpdate(ExecutorMetricsUpdate e) {
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

    /**
     * GC time since JVM start from executor metrics: TotalGCTime (3.1+) or minor + major (3.0); -1 when not reported.
     * Public so that snapshots built from other sources (the History Server's REST API) read it the same way.
     */
    public static long gcTime(Map<String, Long> peaks) {
        Long total = peaks.get("TotalGCTime");
        if (total != null) {
            return total;
        }
        Long minor = peaks.get("MinorGCTime");
        Long major = peaks.get("MajorGCTime");
        if (minor == null && major == null) {
            return -1;
        }
        return (minor == null ? 0 : minor) + (major == null ? 0 : major);
    }

    private static long stageKey(int stageId, int attemptId) {
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
            if (!submitted && stagesGone > 0 && goneStageIds.contains(stageId)) {
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
    private void onJobStart(JobStart e) {
        if (jobs.containsKey(e.jobId()) || (jobsGone > 0 && goneJobIds.contains(e.jobId()))) {
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
    private void onJobEnd(JobEnd e) {
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
                        stageWindow.ended(s, false);
                    }
                }
            }
        }
        settleIfDone(job);
        jobWindow.ended(job, job.status == JobStatus.FAILED);
        evict();
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
    private void onStageSubmitted(StageInfo info) {
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
    private void onStageCompleted(StageInfo info) {
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
        stageWindow.ended(s, s.status == StageStatus.FAILED);
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
        evict();
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

    private void onTaskStart(TaskStart e) {
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

    private void onTaskEnd(TaskEnd e) {
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
            if (sqlGone > 0 && goneSqlIds.contains(id)) {
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
    private void onSqlEnd(SqlExecutionEnd e) {
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
        sqlWindow.ended(sql, sql.errorMessage != null && !sql.errorMessage.isEmpty());
        evict();
    }

    private void onSqlStart(SqlExecutionStart e) {
        seen(e.time());
        LiveSqlExecution sql = sql(e.executionId());
        if (sql == null) {
            return;
        }
        sql.description = e.description();
        sql.startTime = e.time();
        plan(sql, e.physicalPlanDescription(), e.plan());
    }

    private void onDriverAccumUpdates(DriverAccumUpdates e) {
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

    private void onStreamingProgress(StreamingQueryProgress e) {
        StreamingProgress p = e.progress();
        streamingQuery(p.runId(), p.queryId()).progress(p);
        // Spark posts the report when the trigger ends
        seen(p.timestamp() > 0 && p.batchDurationMs() > 0 ? p.timestamp() + p.batchDurationMs() : p.timestamp());
    }

    /**
     * Spark's terminated event carries no time, so the run ends at the newest time seen: the same live and from the
     * log, since both see the events in the order Spark posted them.
     */
    private void onStreamingTerminated(StreamingQueryTerminated e) {
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
    public int stagesHoldingValues() {
        int n = 0;
        for (LiveStage s : stages.values()) {
            if (s.valueRows() > 0) {
                n++;
            }
        }
        return n;
    }

    /**
     * Spark's id; for events that announced the application (its start or end event) without naming it, a damaged
     * or very old log, {@link AppSnapshot#UNKNOWN_APP_ID}{@code -<start time>} ({@code unknown-app} without a start
     * time), so that it can be stored and shown under an id that says it is a placeholder. Readers that know better
     * (a log's file name holds the id) replace it ({@link AppSnapshot#withAppId}). Before either event the id stays
     * null: a live listener's snapshot taken before the application started is not one to store.
     */
    private String appIdOrPlaceholder() {
        if (appId != null && !appId.isBlank()) {
            return appId;
        }
        if (!announced) {
            return null;
        }
        return startTime > 0 ? AppSnapshot.UNKNOWN_APP_ID + "-" + startTime : AppSnapshot.UNKNOWN_APP_ID;
    }

    /** An immutable picture of everything the recorder holds; cheap to repeat while little changes. */
    public AppSnapshot snapshot() {
        return snapshot(true);
    }

    /**
     * @param runningTaskDetail false leaves out the kept tasks of stages still running (a live recorder's periodic
     *                          snapshot: those change with every task end, so writing them each time is wasted work);
     *                          everything else, their statistics included, is as in {@link #snapshot()}
     */
    public AppSnapshot snapshot(boolean runningTaskDetail) {
        return snapshots(runningTaskDetail).retained();
    }

    /**
     * Two pictures of one moment, sharing their summaries.
     *
     * @param retained every entity the recorder holds and the run's totals: what heuristics and the report read.
     *                 Without a window, or before anything left it, this is the whole application (not partial)
     * @param changed  only the jobs, stages, SQL executions and streaming query runs changed since the last written snapshot
     *                 ({@link #written}), with the same application fields, totals and executors; the configuration
     *                 only when it changed (else empty). Always partial: what a periodic write sends, so its size
     *                 follows what changed
     */
    public record Snapshots(AppSnapshot retained, AppSnapshot changed) {
    }

    /** See {@link Snapshots}; {@code runningTaskDetail} as in {@link #snapshot(boolean)}. */
    public Snapshots snapshots(boolean runningTaskDetail) {
        evict();
        handOverLeaving();
        long written = writtenUpTo.get();
        List<StageSummary> stageSummaries = new ArrayList<>(stages.size());
        List<StageSummary> changedStages = new ArrayList<>();
        RunTotals.Accumulator all = gone.copy();
        for (LiveStage s : stages.values()) {
            StageSummary summary = s.summary(quantiles, runningTaskDetail);
            stageSummaries.add(summary);
            all.add(summary);
            // Periodic snapshots leave out a running stage's task rows, so the final one (with them) carries every
            // running stage, changed or not: a task that runs on when the application ends is still written.
            if (!s.writtenBy(written) || (runningTaskDetail && s.activeTasks > 0)) {
                changedStages.add(summary);
            }
        }
        List<JobSummary> jobSummaries = new ArrayList<>(jobs.size());
        List<JobSummary> changedJobs = new ArrayList<>();
        for (LiveJob job : jobs.values()) {
            // A job counts its own tasks (as its stages' task events arrive), so a change marks the job itself.
            JobSummary summary = job.summary();
            jobSummaries.add(summary);
            all.add(summary);
            if (!job.writtenBy(written)) {
                changedJobs.add(summary);
            }
        }
        // Every executor goes out each time, changed or not: they are few (the window does not apply to them), a task
        // end changes its executor anyway, and the application's task time and executor count are sums over them.
        List<ExecutorSummary> executorSummaries = new ArrayList<>(executors.size());
        for (LiveExecutor ex : executors.values()) {
            executorSummaries.add(ex.summary());
        }
        List<SqlExecutionSummary> sql = new ArrayList<>(sqlExecutions.size());
        List<SqlExecutionSummary> changedSql = new ArrayList<>();
        for (LiveSqlExecution q : sqlExecutions.values()) {
            SqlExecutionSummary summary = q.summary();
            sql.add(summary);
            all.add(summary);
            if (!q.writtenBy(written)) {
                changedSql.add(summary);
            }
        }
        // Runs are few (running ones and the last retained terminated ones), but their batches are not: the changed
        // snapshot carries only runs with news since the last write, and the store ships only their new batches.
        List<StreamingQuerySummary> streaming = new ArrayList<>(streamingQueries.size());
        List<StreamingQuerySummary> changedStreaming = new ArrayList<>();
        for (LiveStreamingQuery q : streamingQueries.values()) {
            StreamingQuerySummary summary = q.summary();
            streaming.add(summary);
            if (!q.writtenBy(written)) {
                changedStreaming.add(summary);
            }
        }
        RunTotals totals = all.totals(goneSpans.build(), jobsGone, stagesGone, sqlGone);
        if (executorsGone > 0) {
            totals = totals.withExecutorsNotListed(executorsGone, goneExecutorTaskMs);
        }
        // A snapshot without every executor is partial too: its write must not take the ones that left for stale.
        boolean anyGone = jobsGone + stagesGone + sqlGone > 0 || executorsGone > 0;
        // The application's own redaction settings, also for a snapshot that leaves its unchanged configuration out.
        SnapshotRedactor redactor = redactor();
        AppSnapshot retained = redactor.apply(app(config, executorSummaries, jobSummaries, stageSummaries, sql,
                streaming, totals, anyGone));
        // An unchanged configuration is left out of the snapshot of changes, all but what names the job: the store
        // derives the run's job key from each write, and a key without the program or master would split the run
        // from its previous runs.
        AppSnapshot changed = redactor.apply(app(configChange > written ? config : config.jobIdentity(),
                executorSummaries, changedJobs, changedStages, changedSql, changedStreaming, totals, true));
        return new Snapshots(retained, changed);
    }

    private AppSnapshot app(AppConfig cfg, List<ExecutorSummary> ex, List<JobSummary> js, List<StageSummary> st,
                            List<SqlExecutionSummary> sql, List<StreamingQuerySummary> streaming, RunTotals totals,
                            boolean partial) {
        return new AppSnapshot(appIdOrPlaceholder(), attemptId, appName, sparkUser, sparkVersion, startTime, endTime,
                lastEventTime, complete, cfg, ex, js, st, sql, driverGcTimeMs, driverMaxMemory, eventCount,
                unknownEventTypes, totals, partial, streaming);
    }

    /** Lets the oldest written entities past the window leave (nothing without a window). */
    private void evict() {
        if (!options.windowed()) {
            return;
        }
        long written = writtenUpTo.get();
        jobWindow.evict(written, j -> true, this::jobLeaves);
        // A stage with a task still running (a speculative copy Spark is killing) waits until it closes.
        stageWindow.evict(written, st -> st.closed, this::stageLeaves);
        sqlWindow.evict(written, q -> true, this::sqlLeaves);
        // An executor that registered again is no longer in the window; one with a task still running waits.
        deadExecutorWindow.evict(written, ex -> ex.removeTime >= 0 && ex.activeTasks <= 0, this::executorLeaves);
    }

    /** A removed executor leaves; it lives on in the database (the listener's, or an import's). */
    private void executorLeaves(LiveExecutor ex) {
        executors.remove(ex.executorId);
        long n = executorNumber(ex.executorId);
        if (n >= 0) {
            goneExecutorNumbers.add(n);
        } else {
            goneExecutorNames.add(ex.executorId);
        }
        executorsGone++;
        goneExecutorTaskMs += ex.totalDuration;
    }

    private boolean executorGone(String id) {
        long n = executorNumber(id);
        return n >= 0 ? goneExecutorNumbers.contains(n) : goneExecutorNames.contains(id);
    }

    /** The executor id as Spark numbers them ("17"), or -1 for any other id ("driver", "007"). */
    private static long executorNumber(String id) {
        int len = id.length();
        if (len == 0 || len > 18 || (len > 1 && id.charAt(0) == '0')) {
            return -1;
        }
        for (int i = 0; i < len; i++) {
            if (id.charAt(i) < '0' || id.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(id);
    }

    /** The application's own redaction settings, read again only when its configuration changed. */
    private SnapshotRedactor redactor() {
        if (redactor == null || redactorConfig != config) {
            redactor = SnapshotRedactor.of(Redactor.forSparkProperties(config.sparkProperties()));
            redactorConfig = config;
        }
        return redactor;
    }

    private void jobLeaves(LiveJob job) {
        gone.add(job.summary());
        jobs.remove(job.jobId);
        goneJobIds.add(job.jobId);
        jobsGone++;
        for (int stageId : job.stageIds) {
            List<Integer> ids = jobIdsByStage.get(stageId);
            if (ids != null) {
                ids.remove(Integer.valueOf(job.jobId));
                if (ids.isEmpty()) {
                    jobIdsByStage.remove(stageId);
                }
            }
        }
    }

    private void stageLeaves(LiveStage s) {
        StageSummary summary = s.summary(quantiles);
        if (evictionListener != null) {
            leavingStages.add(summary);
            if (leavingStages.size() >= Math.min(LEAVING_BATCH, options.retainedStages())) {
                handOverLeaving();
            }
        }
        gone.add(summary);
        goneSpans.fold(startTime, s.firstTaskLaunchedTime, s.lastTaskFinishedTime, summary.key());
        stages.remove(stageKey(s.stageId, s.attemptId));
        goneStageIds.add(s.stageId);
        stagesGone++;
        if (retainedCompleted.remove(s)) {
            retainedRows -= s.valueRows();
        }
        if (detailCompleted.remove(s)) {
            detailRetained -= s.keptTasks();
        }
    }

    private void sqlLeaves(LiveSqlExecution q) {
        SqlExecutionSummary summary = q.summary();
        if (evictionListener != null) {
            leavingSql.add(summary);
            if (leavingSql.size() >= Math.min(LEAVING_BATCH, options.retainedSqlExecutions())) {
                handOverLeaving();
            }
        }
        gone.add(summary);
        sqlExecutions.remove(q.executionId);
        goneSqlIds.add(q.executionId);
        sqlGone++;
        for (Long id : q.metricIds) {
            sqlByMetricId.remove(id, q);
        }
    }

    /**
     * Gives the listener a last look at what left since the last hand-over: the stages in one look, the SQL executions
     * in another (a finding located on neither kind is judged the same way as before batching: see
     * {@code analysis.WindowedDiagnosis}). Nothing leaves while a look is taken, so every look of
     * a round shares one list of executor summaries.
     */
    private void handOverLeaving() {
        if (leavingStages.isEmpty() && leavingSql.isEmpty()) {
            return;
        }
        List<ExecutorSummary> ex = new ArrayList<>(executors.size());
        for (LiveExecutor e : executors.values()) {
            ex.add(e.summary());
        }
        if (!leavingStages.isEmpty()) {
            List<StageSummary> st = List.copyOf(leavingStages);
            leavingStages.clear();
            evictionListener.leaving(lastLook(ex, st, List.of()));
        }
        if (!leavingSql.isEmpty()) {
            List<SqlExecutionSummary> sql = List.copyOf(leavingSql);
            leavingSql.clear();
            evictionListener.leaving(lastLook(ex, List.of(), sql));
        }
    }

    /** Leaving entities with the application's context, redacted as the snapshots are. */
    private AppSnapshot lastLook(List<ExecutorSummary> ex, List<StageSummary> st, List<SqlExecutionSummary> sql) {
        return redactor().apply(app(config, ex, List.of(), st, sql, List.of(), null, false));
    }
}
