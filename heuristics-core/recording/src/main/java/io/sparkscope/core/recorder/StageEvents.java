package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent.JobEnd;
import io.sparkscope.core.event.SparkEvent.JobStart;
import io.sparkscope.core.event.SparkEvent.TaskEnd;
import io.sparkscope.core.event.SparkEvent.TaskStart;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.model.JobSummary.JobStatus;
import io.sparkscope.core.model.SparkLine;
import io.sparkscope.core.model.StageSummary.StageStatus;
import io.sparkscope.core.model.TaskTimes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The application's jobs and stage attempts and how job, stage and task events change them, with Spark's rules for
 * which job counts which stage's tasks (a stage shared by jobs, one reused from an earlier job, one skipped). A task
 * also counts on its executor ({@link ExecutorEvents}) and in the SQL execution tracking its stage
 * ({@link SqlEvents}); a completed stage's task values go under the {@link TaskValueBudgets}.
 */
final class StageEvents {
    private final EventFolding live;
    private final RecorderOptions options;
    private final ExecutorEvents executors;
    private final SqlEvents sql;
    private final TaskValueBudgets budgets;
    final Map<Integer, LiveJob> jobs = new TreeMap<>();
    /** Key: stageId << 32 | attemptId, so the map iterates in stage then attempt order. */
    final Map<Long, LiveStage> stages = new TreeMap<>();
    final Map<Integer, List<Integer>> jobIdsByStage = new HashMap<>();
    /**
     * Stage attempts a JobStart named that have not been submitted since, with their task counts: the ones Spark
     * holds as pending and counts as skipped in a job that ends before they run (a stage reused from an earlier job
     * is one, though its own attempt completed then).
     */
    private final Map<Long, Integer> pendingForJobs = new HashMap<>();

    StageEvents(EventFolding live, RecorderOptions options, ExecutorEvents executors, SqlEvents sql,
                TaskValueBudgets budgets) {
        this.live = live;
        this.options = options;
        this.executors = executors;
        this.sql = sql;
        this.budgets = budgets;
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
            if (!submitted && live.window.stageGone(stageId)) {
                return null;
            }
            s = new LiveStage(stageId, attemptId, options);
            List<Integer> jobIds = jobIdsByStage.get(stageId);
            if (jobIds != null) {
                s.jobIds.addAll(jobIds);
            }
            stages.put(key, s);
        }
        s.changedAt(live.eventCount);
        return s;
    }

    /**
     * A repeated JobStart of a known job is ignored: Spark would replace the job, so a duplicated line after its end
     * would leave it running forever.
     */
    void onJobStart(JobStart e) {
        if (jobs.containsKey(e.jobId()) || live.window.jobGone(e.jobId())) {
            live.seen(e.submissionTime());
            return;
        }
        LiveJob job = new LiveJob(e.jobId());
        job.changedAt(live.eventCount);
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
                sql.jobStarted(job.sqlExecutionId, e);
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
                    s.changedAt(live.eventCount);
                }
            }
        }
        live.seen(e.submissionTime());
    }

    /** As Spark: the end of a job never started, or already ended, changes nothing. */
    void onJobEnd(JobEnd e) {
        live.seen(e.completionTime());
        LiveJob job = jobs.get(e.jobId());
        if (job == null || job.ended) {
            return;
        }
        job.ended = true;
        job.changedAt(live.eventCount);
        for (var it = pendingForJobs.entrySet().iterator(); it.hasNext(); ) {
            var pending = it.next();
            int stageId = (int) (pending.getKey() >> 32);
            if (job.stageIds.contains(stageId)) {
                job.stageSkipped(stageId, pending.getValue(), !SparkLine.atLeast(live.sparkVersion, 3, 4));
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
                    s.releaseValues(live.quantiles);
                    s.changedAt(live.eventCount);
                    if (!s.completedOnce) {
                        s.completedOnce = true;
                        live.window.stageWindow.ended(s, false);
                    }
                }
            }
        }
        settleIfDone(job);
        live.window.jobWindow.ended(job, job.status == JobStatus.FAILED);
        live.window.evict();
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
        live.seen(info.submissionTime());
        LiveStage s = stage(info.stageId(), info.attemptId(), true);
        if (s.completedOnce || s.closed) {
            return;
        }
        s.update(info);
        s.status = StageStatus.ACTIVE;
        sql.stageSubmitted(info);
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
                    job.changedAt(live.eventCount);
                }
            }
        }
    }

    /**
     * As Spark: a completion of a closed stage attempt (completed, no task running) changes nothing; a repeated one
     * while tasks still run updates it again. Either way it enters the retention queues once.
     */
    void onStageCompleted(StageInfo info) {
        live.seen(info.completionTime());
        LiveStage s = stage(info.stageId(), info.attemptId());
        if (s == null || s.closed) {
            return;
        }
        s.completed(info);
        sql.stageCompleted(info);
        if (s.completedOnce) {
            return;
        }
        s.completedOnce = true;
        pendingForJobs.remove(stageKey(info.stageId(), info.attemptId()));
        for (LiveJob job : s.countingJobs) {
            job.stageCompleted(info.stageId(), info.failureReason() != null, s.submissionTime > 0, s.numTasks);
            job.changedAt(live.eventCount);
        }
        live.window.stageWindow.ended(s, s.status == StageStatus.FAILED);
        if (s.closed) {
            // No task runs and none will count any more: the values have served; keep their distribution only.
            s.releaseValues(live.quantiles);
            for (LiveJob job : s.countingJobs) {
                settleIfDone(job);
            }
        }
        budgets.completed(s);
        live.window.evict();
    }

    void onTaskStart(TaskStart e) {
        LiveStage s = stage(e.stageId(), e.stageAttemptId());
        if (s != null) {
            if (!s.closed) {
                for (LiveJob job : s.countingJobs) {
                    job.taskStarted();
                    job.changedAt(live.eventCount);
                }
            }
            s.taskStarted(e.taskInfo());
        }
        LiveExecutor ex = executors.executors.get(e.taskInfo().executorId());
        if (ex != null) {
            ex.taskStarted();
            ex.changedAt(live.eventCount);
        }
        live.seen(e.taskInfo().launchTime());
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
                job.changedAt(live.eventCount);
            }
            if (s.closed) {
                stageClosed(s);
            }
        }
        LiveExecutor ex = executors.executor(e.taskInfo().executorId());
        // A repeated line counts on no executor either; past the attempt's close repeats can no longer be told
        // apart, and the end counts there as Spark counts it.
        if (counted != LiveStage.EndCount.DUPLICATE) {
            ex.taskEnded(e.reason(), e.taskInfo(), e.metrics());
        }
        ex.taskEndPeaks(e.executorMetrics());
        sql.taskEnded(e);
        // An impossible span says one of the two times is wrong: neither moves the application's clock.
        if (TaskTimes.known(e.taskInfo().launchTime(), e.taskInfo().finishTime())) {
            live.seen(e.taskInfo().finishTime());
        }
    }

    /**
     * A stage attempt closed (completed or skipped, no task running): nothing will count in it any more. Its values
     * have served, and an ended job whose stages have all closed no longer needs its completed-index set.
     */
    private void stageClosed(LiveStage s) {
        budgets.closed(s);
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
}
