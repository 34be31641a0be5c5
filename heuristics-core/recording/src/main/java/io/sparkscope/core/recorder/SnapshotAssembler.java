package io.sparkscope.core.recorder;

import io.sparkscope.core.redact.Redactor;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.RunTotals;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.redact.SnapshotRedactor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Turns the live entities of a {@link Recorder} into immutable {@link AppSnapshot}s: the whole picture, the part
 * changed since the last write, and the last looks at entities leaving the window. Every picture is redacted with
 * the application's own settings. Kept apart from the event handling ({@link EventFolding}) because taking a picture
 * is a different job from keeping it up to date, and it happens on a different rhythm (each flush, not each event).
 */
final class SnapshotAssembler {
    private final EventFolding live;
    /** The redactor of the live configuration, made again only when the configuration changes. */
    private AppConfig redactorConfig;
    private SnapshotRedactor redactor;

    SnapshotAssembler(EventFolding live) {
        this.live = live;
    }

    /** See {@link Recorder.Snapshots}; {@code runningTaskDetail} as in {@link Recorder#snapshot(boolean)}. */
    Recorder.Snapshots snapshots(boolean runningTaskDetail, RetentionWindow window) {
        window.evict();
        window.handOverLeaving();
        long written = window.writtenUpTo();
        RunTotals.Accumulator all = window.goneTotals();
        List<StageSummary> stageSummaries = new ArrayList<>(live.stageEvents.stages.size());
        List<StageSummary> changedStages = new ArrayList<>();
        // Periodic snapshots leave out a running stage's task rows, so the final one (with them) carries every
        // running stage, changed or not: a task that runs on when the application ends is still written.
        summarise(live.stageEvents.stages.values(), s -> s.summary(live.quantiles, runningTaskDetail),
                s -> !s.writtenBy(written) || (runningTaskDetail && s.activeTasks > 0), all::add,
                stageSummaries, changedStages);
        List<JobSummary> jobSummaries = new ArrayList<>(live.stageEvents.jobs.size());
        List<JobSummary> changedJobs = new ArrayList<>();
        // A job counts its own tasks (as its stages' task events arrive), so a change marks the job itself.
        summarise(live.stageEvents.jobs.values(), LiveJob::summary, job -> !job.writtenBy(written), all::add,
                jobSummaries, changedJobs);
        // Every executor goes out each time, changed or not: they are few (the window does not apply to them), a task
        // end changes its executor anyway, and the application's task time and executor count are sums over them.
        List<ExecutorSummary> executorSummaries = executorSummaries();
        List<SqlExecutionSummary> sql = new ArrayList<>(live.sqlEvents.sqlExecutions.size());
        List<SqlExecutionSummary> changedSql = new ArrayList<>();
        summarise(live.sqlEvents.sqlExecutions.values(), LiveSqlExecution::summary, q -> !q.writtenBy(written),
                all::add, sql, changedSql);
        // Runs are few (running ones and the last retained terminated ones), but their batches are not: the changed
        // snapshot carries only runs with news since the last write, and the store ships only their new batches.
        List<StreamingQuerySummary> streaming = new ArrayList<>(live.streamingEvents.streamingQueries.size());
        List<StreamingQuerySummary> changedStreaming = new ArrayList<>();
        summarise(live.streamingEvents.streamingQueries.values(), LiveStreamingQuery::summary,
                q -> !q.writtenBy(written), summary -> { }, streaming, changedStreaming);
        RunTotals totals = window.totals(all);
        // A snapshot without every executor is partial too: its write must not take the ones that left for stale.
        boolean anyGone = window.anyGone();
        // The application's own redaction settings, also for a snapshot that leaves its unchanged configuration out.
        SnapshotRedactor redactor = redactor();
        AppSnapshot retained = redactor.apply(app(live.config, executorSummaries, jobSummaries, stageSummaries, sql,
                streaming, totals, anyGone));
        // An unchanged configuration is left out of the snapshot of changes, all but what names the job: the store
        // derives the run's job key from each write, and a key without the program or master would split the run
        // from its previous runs.
        AppSnapshot changed = redactor.apply(app(live.configChange > written ? live.config : live.config.jobIdentity(),
                executorSummaries, changedJobs, changedStages, changedSql, changedStreaming, totals, true));
        return new Recorder.Snapshots(retained, changed);
    }

    /**
     * The summary of each live entity into {@code summaries}, and of those {@code changed} says changed since the
     * last write into {@code changedSummaries}; {@code count} adds each to the run's totals.
     */
    private static <E extends LiveEntity, S> void summarise(Collection<E> entities, Function<E, S> summary,
                                                            Predicate<E> changed, Consumer<S> count,
                                                            List<S> summaries, List<S> changedSummaries) {
        for (E entity : entities) {
            S s = summary.apply(entity);
            summaries.add(s);
            count.accept(s);
            if (changed.test(entity)) {
                changedSummaries.add(s);
            }
        }
    }

    /** Every executor the recorder holds, summarised. */
    List<ExecutorSummary> executorSummaries() {
        List<ExecutorSummary> ex = new ArrayList<>(live.executorEvents.executors.size());
        for (LiveExecutor e : live.executorEvents.executors.values()) {
            ex.add(e.summary());
        }
        return ex;
    }

    private AppSnapshot app(AppConfig cfg, List<ExecutorSummary> ex, List<JobSummary> js, List<StageSummary> st,
                            List<SqlExecutionSummary> sql, List<StreamingQuerySummary> streaming, RunTotals totals,
                            boolean partial) {
        return AppSnapshot.builder().appId(live.appIdOrPlaceholder()).attemptId(live.attemptId).appName(live.appName)
                .sparkUser(live.sparkUser).sparkVersion(live.sparkVersion).startTime(live.startTime)
                .endTime(live.endTime).lastEventTime(live.lastEventTime).complete(live.complete).config(cfg)
                .executors(ex).jobs(js).stages(st).sqlExecutions(sql).driverGcTimeMs(live.driverGcTimeMs)
                .driverMaxMemory(live.driverMaxMemory).eventCount(live.eventCount)
                .unknownEventTypes(live.unknownEventTypes).totals(totals).partial(partial)
                .streamingQueries(streaming).build();
    }

    /** The application's own redaction settings, read again only when its configuration changed. */
    private SnapshotRedactor redactor() {
        if (redactor == null || redactorConfig != live.config) {
            redactor = SnapshotRedactor.of(Redactor.forSparkProperties(live.config.sparkProperties()));
            redactorConfig = live.config;
        }
        return redactor;
    }

    /** Leaving entities with the application's context, redacted as the snapshots are. */
    AppSnapshot lastLook(List<ExecutorSummary> ex, List<StageSummary> st, List<SqlExecutionSummary> sql) {
        return redactor().apply(app(live.config, ex, List.of(), st, sql, List.of(), null, false));
    }
}
