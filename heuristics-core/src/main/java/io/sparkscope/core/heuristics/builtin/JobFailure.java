package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.StageSummary;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Any failed or cancelled job is HIGH: the application did not do (all of) its work. Thesis §4.2.1. */
public final class JobFailure implements Heuristic {
    public static final String ID = "JobFailure";
    private static final int MAX_REASONS = 10;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        List<Integer> failedIds = new ArrayList<>();
        List<Map<String, Object>> reasons = new ArrayList<>();
        for (JobSummary j : app.jobs()) {
            if (j.status() == JobSummary.JobStatus.FAILED) {
                failedIds.add(j.jobId());
                if (reasons.size() < MAX_REASONS) {
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("jobId", j.jobId());
                    r.put("reason", Facts.firstLines(j.failureReason(), 3, 500));
                    reasons.add(r);
                }
            }
        }
        if (failedIds.isEmpty()) {
            return List.of();
        }
        Set<Integer> failed = new HashSet<>(failedIds);
        List<String> failedStages = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            if (s.status() == StageSummary.StageStatus.FAILED && s.jobIds().stream().anyMatch(failed::contains)) {
                failedStages.add(s.key());
            }
        }
        String firstReason = Facts.firstLines(app.jobs().stream().filter(j -> j.jobId() == failedIds.get(0))
                .findFirst().map(JobSummary::failureReason).orElse(null), 1, 300);
        String message = failedIds.size() + " of " + app.totals().jobs() + " jobs failed or were cancelled (job ids "
                + ids(failedIds) + ")." + (firstReason.isEmpty() ? "" : " Job " + failedIds.get(0) + ": " + firstReason);
        return List.of(Finding.builder(ID, Severity.HIGH)
                .title(failedIds.size() == 1 ? "1 job failed" : failedIds.size() + " jobs failed")
                .message(message)
                .recommendation("Start with the failed stages (StageFailure) and the tasks' errors (TaskFailure): a job"
                        + " fails when one of its stages fails, usually because one task failed spark.task.maxFailures"
                        + " times (now " + app.config().getOrDefault("spark.task.maxFailures", "4") + "). Fix that"
                        + " error first; raising retries only hides it. A cancelled job was stopped by the user or by"
                        + " another failure.")
                .stages(failedStages)
                .configKeys("spark.task.maxFailures")
                .detail("failedJobs", failedIds.size())
                .detail("totalJobs", app.totals().jobs())
                .detail("failedJobIds", failedIds)
                .detail("reasons", reasons)
                .build());
    }

    static String ids(List<Integer> ids) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ids.size() && i < 20; i++) {
            sb.append(i == 0 ? "" : ", ").append(ids.get(i));
        }
        return ids.size() > 20 ? sb + " and " + (ids.size() - 20) + " more" : sb.toString();
    }
}
