package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.CauseLinker;
import io.sparkscope.core.heuristics.ErrorGroups;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.TaskRecord;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Any failed or cancelled job is HIGH: the application did not do (all of) its work. The jobs' reasons and the
 * application's failed tasks are grouped by their normalised message, so one error that struck many tasks reads as
 * one error with a count, not as many.
 */
public final class JobFailure implements Heuristic {
    public static final String ID = "JobFailure";
    private static final int MAX_GROUPS = 10;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return """
                a job failed or was cancelled → HIGH: the application did not do its work. Reasons and the
                application's failed-task errors are grouped by normalised message. Jobs cancelled because their
                streaming query was stopped (job group or tag of a stopped query's run) are not failures. Impact: the failed jobs' wall
                and task time. *Do*: fix the failing stage's error (see StageFailure/TaskFailure) rather than
                raising retries.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        List<Integer> failedIds = new ArrayList<>();
        Map<String, Map<String, Object>> reasonGroups = new LinkedHashMap<>();
        long lostWall = 0;
        Set<String> stoppedRuns = stoppedQueryRuns(app);
        for (JobSummary j : app.jobs()) {
            if (j.status() != JobSummary.JobStatus.FAILED || stoppedWithItsQuery(j, stoppedRuns)) {
                continue;
            }
            failedIds.add(j.jobId());
            lostWall += j.durationMs();
            String reason = j.failureReason() == null ? "(no reason given)" : j.failureReason();
            Map<String, Object> g = reasonGroups.computeIfAbsent(ErrorGroups.signature(reason), sig -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("signature", sig);
                m.put("count", 0);
                m.put("first", ErrorGroups.firstLines(reason));
                m.put("jobIds", new ArrayList<Integer>());
                return m;
            });
            g.put("count", (Integer) g.get("count") + 1);
            @SuppressWarnings("unchecked")
            List<Integer> ids = (List<Integer>) g.get("jobIds");
            ids.add(j.jobId());
        }
        if (failedIds.isEmpty()) {
            return List.of();
        }
        Set<Integer> failed = new HashSet<>(failedIds);
        List<String> failedStages = new ArrayList<>();
        ErrorGroups taskErrors = new ErrorGroups();
        long lostTask = 0;
        for (StageSummary s : app.stages()) {
            boolean inFailedJob = s.jobIds().stream().anyMatch(failed::contains);
            if (inFailedJob && s.totals() != null) {
                lostTask += s.totals().get(TaskMetric.EXECUTOR_RUN_TIME);
            }
            if (s.status() == StageSummary.StageStatus.FAILED && inFailedJob) {
                failedStages.add(s.key());
            }
            for (TaskRecord t : s.keptTasks()) {
                if ("FAILED".equals(t.status())) {
                    taskErrors.add(t.errorMessage(), s.key(), t.executorId());
                }
            }
        }
        List<Map<String, Object>> groups = new ArrayList<>(reasonGroups.values());
        StringBuilder message = new StringBuilder().append(failedIds.size()).append(" of ").append(app.totals().jobs())
                .append(" jobs failed or were cancelled (job ids ").append(ids(failedIds)).append(").");
        for (int i = 0; i < Math.min(3, groups.size()); i++) {
            Map<String, Object> g = groups.get(i);
            @SuppressWarnings("unchecked")
            List<Integer> jobIds = (List<Integer>) g.get("jobIds");
            String first = Facts.firstLines((String) g.get("first"), 1, 300);
            message.append(' ').append(jobIds.size() == 1 ? "Job " + jobIds.get(0) : jobIds.size() + " jobs ("
                    + ids(jobIds) + ")").append(": ").append(jobIds.size() == 1 ? first : g.get("signature"))
                    .append(first.endsWith(".") || first.endsWith("…") ? "" : ".");
        }
        if (groups.size() > 3) {
            message.append(" And ").append(groups.size() - 3).append(" other reasons.");
        }
        SparkSettings conf = SparkSettings.of(app);
        long wall = Math.min(app.durationMs() > 0 ? app.durationMs() : lostWall, lostWall);
        return List.of(Finding.builder(ID, Severity.HIGH)
                .title(failedIds.size() == 1 ? "1 job failed" : failedIds.size() + " jobs failed")
                .message(message.toString())
                .recommendation("Start with the failed stages (StageFailure) and the tasks' errors (TaskFailure): a job"
                        + " fails when one of its stages fails, usually because one task used up"
                        + " " + conf.taskAttemptsPhrase() + ". Fix that error first; raising retries only hides it. A cancelled job was stopped by the user or by"
                        + " another failure.")
                .stages(failedStages)
                .configKeys("spark.task.maxFailures")
                .impact(wall, lostTask, "the failed jobs' wall time and task time, whose work is lost")
                .detail("failedJobs", failedIds.size())
                .detail("totalJobs", app.totals().jobs())
                .detail("failedJobIds", failedIds)
                .detail("reasons", groups.subList(0, Math.min(MAX_GROUPS, groups.size())))
                .detail("errorGroups", taskErrors.top(MAX_GROUPS))
                .build());
    }

    /** Run ids of the streaming queries that were stopped (not failed). */
    private static Set<String> stoppedQueryRuns(AppSnapshot app) {
        Set<String> runs = new HashSet<>();
        for (StreamingQuerySummary q : app.streamingQueries()) {
            if (q.status() != StreamingQuerySummary.Status.FAILED && q.runId() != null) {
                runs.add(q.runId());
            }
        }
        return runs;
    }

    /**
     * Stopping a streaming query cancels the jobs of its batch in flight (Spark runs them in a job group, or with a
     * tag, named after the query's run id): the query was ended on purpose, its work is not lost the way a failed
     * job's is, and the next start resumes from the checkpoint.
     */
    static boolean stoppedWithItsQuery(JobSummary j, Set<String> stoppedRuns) {
        if (stoppedRuns.isEmpty() || !CauseLinker.cancelled(j.failureReason())) {
            return false;
        }
        for (String run : stoppedRuns) {
            if (run.equals(j.jobGroup()) || j.failureReason().contains(run)
                    || j.jobTags().stream().anyMatch(t -> t.contains(run))) {
                return true;
            }
        }
        return false;
    }

    static String ids(List<Integer> ids) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ids.size() && i < 20; i++) {
            sb.append(i == 0 ? "" : ", ").append(ids.get(i));
        }
        return ids.size() > 20 ? sb + " and " + (ids.size() - 20) + " more" : sb.toString();
    }
}
