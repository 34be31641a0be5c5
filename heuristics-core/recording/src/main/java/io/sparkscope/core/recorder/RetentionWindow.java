package io.sparkscope.core.recorder;

import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.RunTotals;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskSpanSummary;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a long-running application's recorder lets go: completed jobs, stages and SQL executions, and removed
 * executors, past the limits of their {@link Window}s, once a snapshot holding them was written. A driver that runs for
 * weeks would otherwise hold every entity it ever saw. What leaves is remembered only as totals (so application-wide
 * numbers stay those of the whole run) and as ids (so a late or repeated event cannot bring back a phantom), and the
 * {@link Recorder.EvictionListener} gets a last look at it. Kept apart from the event handling ({@link EventFolding}
 * and its parts) because forgetting has rules of its own (when written, in which order, what to remember) that the
 * handlers need not know; they only tell it what ended and ask whether an id already left.
 */
final class RetentionWindow {
    private final RecorderOptions options;
    private final EventFolding live;
    private final SnapshotAssembler assembler;
    /** Event count of the newest snapshot known to be written; set by the writer's thread. */
    private final AtomicLong writtenUpTo = new AtomicLong(-1);
    final Window<LiveJob> jobWindow;
    final Window<LiveStage> stageWindow;
    final Window<LiveSqlExecution> sqlWindow;
    /** Removed executors: an elastic application may add and remove executors by the hundred thousand. */
    final Window<LiveExecutor> deadExecutorWindow;
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
    private Recorder.EvictionListener evictionListener;
    /** Summaries of entities that left since the last hand-over, for the listener's next last look. */
    private final List<StageSummary> leavingStages = new ArrayList<>();
    private final List<SqlExecutionSummary> leavingSql = new ArrayList<>();

    RetentionWindow(RecorderOptions options, EventFolding live, SnapshotAssembler assembler) {
        this.options = options;
        this.live = live;
        this.assembler = assembler;
        this.jobWindow = new Window<>(options.retainedJobs());
        this.stageWindow = new Window<>(options.retainedStages());
        this.sqlWindow = new Window<>(options.retainedSqlExecutions());
        this.deadExecutorWindow = new Window<>(options.retainedDeadExecutors());
    }

    void setEvictionListener(Recorder.EvictionListener listener) {
        this.evictionListener = listener;
    }

    /** See {@link Recorder#written}: any thread may call it. */
    void written(long eventCount) {
        writtenUpTo.accumulateAndGet(eventCount, Math::max);
    }

    /** Event count of the newest snapshot known to be written (-1 before any). */
    long writtenUpTo() {
        return writtenUpTo.get();
    }

    /** See {@link Recorder#leftUnwritten}. */
    long leftUnwritten() {
        return jobWindow.leftUnwritten() + stageWindow.leftUnwritten() + sqlWindow.leftUnwritten()
                + deadExecutorWindow.leftUnwritten();
    }

    /** See {@link Recorder#overWindow}. */
    boolean overWindow() {
        return options.windowed() && (jobWindow.over() || stageWindow.over() || sqlWindow.over()
                || deadExecutorWindow.over());
    }

    /** Whether the job left the window. */
    boolean jobGone(int jobId) {
        return jobsGone > 0 && goneJobIds.contains(jobId);
    }

    /** Whether an attempt of the stage left the window. */
    boolean stageGone(int stageId) {
        return stagesGone > 0 && goneStageIds.contains(stageId);
    }

    /** Whether the SQL execution left the window. */
    boolean sqlExecutionGone(long executionId) {
        return sqlGone > 0 && goneSqlIds.contains(executionId);
    }

    /** A fresh sum of the totals of everything that left, for a snapshot to add the live entities to. */
    RunTotals.Accumulator goneTotals() {
        return gone.copy();
    }

    /** The run's totals: {@code all} (the live entities and {@link #goneTotals}) with the counts of what left. */
    RunTotals totals(RunTotals.Accumulator all) {
        RunTotals totals = all.totals(goneSpans.build(), jobsGone, stagesGone, sqlGone);
        if (executorsGone > 0) {
            totals = totals.withExecutorsNotListed(executorsGone, goneExecutorTaskMs);
        }
        return totals;
    }

    /** Whether anything left: a snapshot then no longer holds the whole application. */
    boolean anyGone() {
        return jobsGone + stagesGone + sqlGone > 0 || executorsGone > 0;
    }

    /** Lets the oldest written entities past the window leave (nothing without a window). */
    void evict() {
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
        live.executorEvents.executors.remove(ex.executorId);
        long n = executorNumber(ex.executorId);
        if (n >= 0) {
            goneExecutorNumbers.add(n);
        } else {
            goneExecutorNames.add(ex.executorId);
        }
        executorsGone++;
        goneExecutorTaskMs += ex.totalDuration;
    }

    /** Whether the executor left the window (a late event for it must not bring it back). */
    boolean executorGone(String id) {
        if (executorsGone == 0) {
            return false;
        }
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

    private void jobLeaves(LiveJob job) {
        gone.add(job.summary());
        live.stageEvents.jobs.remove(job.jobId);
        goneJobIds.add(job.jobId);
        jobsGone++;
        for (int stageId : job.stageIds) {
            List<Integer> ids = live.stageEvents.jobIdsByStage.get(stageId);
            if (ids != null) {
                ids.remove(Integer.valueOf(job.jobId));
                if (ids.isEmpty()) {
                    live.stageEvents.jobIdsByStage.remove(stageId);
                }
            }
        }
    }

    private void stageLeaves(LiveStage s) {
        StageSummary summary = s.summary(live.quantiles);
        if (evictionListener != null) {
            leavingStages.add(summary);
            if (leavingStages.size() >= Math.min(Recorder.LEAVING_BATCH, options.retainedStages())) {
                handOverLeaving();
            }
        }
        gone.add(summary);
        goneSpans.fold(live.startTime, s.firstTaskLaunchedTime, s.lastTaskFinishedTime, summary.key());
        live.stageEvents.stages.remove(StageEvents.stageKey(s.stageId, s.attemptId));
        goneStageIds.add(s.stageId);
        stagesGone++;
        live.budgets.left(s);
    }

    private void sqlLeaves(LiveSqlExecution q) {
        SqlExecutionSummary summary = q.summary();
        if (evictionListener != null) {
            leavingSql.add(summary);
            if (leavingSql.size() >= Math.min(Recorder.LEAVING_BATCH, options.retainedSqlExecutions())) {
                handOverLeaving();
            }
        }
        gone.add(summary);
        live.sqlEvents.sqlExecutions.remove(q.executionId);
        goneSqlIds.add(q.executionId);
        sqlGone++;
        for (Long id : q.metricIds) {
            live.sqlEvents.sqlByMetricId.remove(id, q);
        }
    }

    /**
     * Gives the listener a last look at what left since the last hand-over: the stages in one look, the SQL executions
     * in another (a finding located on neither kind is judged the same way as before batching: see
     * {@link io.sparkscope.core.analysis.WindowedDiagnosis}). Nothing leaves while a look is taken, so every look of
     * a round shares one list of executor summaries.
     */
    void handOverLeaving() {
        if (leavingStages.isEmpty() && leavingSql.isEmpty()) {
            return;
        }
        List<ExecutorSummary> ex = assembler.executorSummaries();
        if (!leavingStages.isEmpty()) {
            List<StageSummary> st = List.copyOf(leavingStages);
            leavingStages.clear();
            evictionListener.leaving(assembler.lastLook(ex, st, List.of()));
        }
        if (!leavingSql.isEmpty()) {
            List<SqlExecutionSummary> sql = List.copyOf(leavingSql);
            leavingSql.clear();
            evictionListener.leaving(assembler.lastLook(ex, List.of(), sql));
        }
    }
}
