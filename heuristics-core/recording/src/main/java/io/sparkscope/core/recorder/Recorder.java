package io.sparkscope.core.recorder;

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
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.RunTotals;

import java.util.Map;

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
 * handles it ({@link LiveStage#taskEnded}, the event methods of {@link StageEvents} and its kin), so that the History Server's numbers stay
 * Spark's; where Spark's own bookkeeping would break on such input (a running-task count below zero, a job or
 * stage reopened by a repeated line, a repeated task-end line counted as one more task) it is not copied, and the
 * method says so.
 *
 * <p>This class is the recorder's public face and its event dispatch. The work lives in other classes of this
 * package, one idea each: {@link EventFolding} (the application's own facts and the event clock) and its parts, one
 * per kind of live entity and how events change it ({@link ExecutorEvents}, {@link StageEvents}, {@link SqlEvents},
 * {@link StreamingEvents}, {@link TaskValueBudgets}), {@link RetentionWindow} (what a long-running application lets
 * go) and {@link SnapshotAssembler} (the immutable pictures).
 */
public final class Recorder {
    private final RecorderOptions options;
    private final EventFolding live;
    private final RetentionWindow window;
    private final SnapshotAssembler assembler;
    private final StageEvents stages;
    private final ExecutorEvents executors;
    private final SqlEvents sql;
    private final StreamingEvents streaming;

    public Recorder() {
        this(RecorderOptions.DEFAULTS);
    }

    public Recorder(RecorderOptions options) {
        this(options, StreamingLimits.DEFAULTS);
    }

    public Recorder(RecorderOptions options, StreamingLimits streamingLimits) {
        this.options = options;
        this.live = new EventFolding(options, streamingLimits);
        this.assembler = new SnapshotAssembler(live);
        this.window = new RetentionWindow(options, live, assembler);
        live.window = window;
        this.stages = live.stageEvents;
        this.executors = live.executorEvents;
        this.sql = live.sqlEvents;
        this.streaming = live.streamingEvents;
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
        window.setEvictionListener(listener);
    }

    /**
     * The snapshot taken at {@code eventCount} (its {@link AppSnapshot#eventCount()}) is written: what it held is
     * clean, and completed entities it held may leave the window. Any thread may call it (the writer's does).
     */
    public void written(long eventCount) {
        window.written(eventCount);
    }

    /** Entities that left the window before they could be written (the database was away too long). */
    public long leftUnwritten() {
        return window.leftUnwritten();
    }

    /**
     * Whether a window holds half a limit more ended entities than its limit: a reader with nobody to take periodic
     * snapshots (an event log read offline) asks after each event and, when true, writes what changed
     * ({@link #snapshots}) or calls {@link #written}, and then {@link #release}, so that the windows bound its memory
     * as the listener's flushes bound the driver's, and nothing leaves unwritten while the writes succeed.
     */
    public boolean overWindow() {
        return window.overWindow();
    }

    /** Lets the written entities past the windows leave now, without a snapshot (see {@link #overWindow}). */
    public void release() {
        window.evict();
    }

    public RecorderOptions options() {
        return options;
    }

    /** Applies one event. Never throws for odd but well-formed events (unknown ids, out-of-order ends). */
    public void onEvent(SparkEvent event) {
        live.eventCount++;
        // Java 17 has no pattern switch; the most frequent events are tested first.
        if (event instanceof TaskEnd e) {
            stages.onTaskEnd(e);
        } else if (event instanceof TaskStart e) {
            stages.onTaskStart(e);
        } else if (event instanceof StageSubmitted e) {
            stages.onStageSubmitted(e.stage());
        } else if (event instanceof StageCompleted e) {
            stages.onStageCompleted(e.stage());
        } else if (event instanceof JobStart e) {
            stages.onJobStart(e);
        } else if (event instanceof JobEnd e) {
            stages.onJobEnd(e);
        } else if (event instanceof ExecutorAdded e) {
            executors.onExecutorAdded(e);
        } else if (event instanceof ExecutorRemoved e) {
            executors.onExecutorRemoved(e);
        } else if (event instanceof BlockManagerAdded e) {
            executors.onBlockManagerAdded(e);
        } else if (event instanceof ExecutorMetricsUpdate e) {
            executors.onExecutorMetricsUpdate(e);
        } else if (event instanceof StageExecutorMetrics e) {
            executors.onStageExecutorMetrics(e);
        } else if (event instanceof EnvironmentUpdate e) {
            live.onEnvironmentUpdate(e);
        } else if (event instanceof ApplicationStart e) {
            live.onApplicationStart(e);
        } else if (event instanceof ApplicationEnd e) {
            live.onApplicationEnd(e);
        } else if (event instanceof LogStart e) {
            live.onLogStart(e);
        } else if (event instanceof SqlExecutionStart e) {
            sql.onSqlStart(e);
        } else if (event instanceof SqlExecutionEnd e) {
            sql.onSqlEnd(e);
        } else if (event instanceof SqlAdaptivePlanUpdate e) {
            sql.onSqlAdaptivePlanUpdate(e);
        } else if (event instanceof DriverAccumUpdates e) {
            sql.onDriverAccumUpdates(e);
        } else if (event instanceof StreamingQueryProgress e) {
            streaming.onStreamingProgress(e);
        } else if (event instanceof StreamingQueryIdle e) {
            streaming.onStreamingIdle(e);
        } else if (event instanceof StreamingQueryStarted e) {
            streaming.onStreamingStarted(e);
        } else if (event instanceof StreamingQueryTerminated e) {
            streaming.onStreamingTerminated(e);
        } else if (event instanceof StreamingQueryTrigger e) {
            streaming.onStreamingTrigger(e);
        } else if (event instanceof Unknown e) {
            live.onUnknown(e);
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
        return assembler.snapshots(runningTaskDetail, window);
    }

    /** Stage attempts currently holding task values (running or recently completed). */
    public int stagesHoldingValues() {
        return stages.stagesHoldingValues();
    }
}
