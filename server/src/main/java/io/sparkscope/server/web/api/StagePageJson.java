package io.sparkscope.server.web.api;

import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.store.query.SqlQuery;
import io.sparkscope.store.query.StagePageQuery;
import io.sparkscope.store.query.StagePlan;
import io.sparkscope.store.query.StageRow;

import java.util.List;
import java.util.Map;

/**
 * The stage page as JSON ({@code /api/v1/apps/{appId}[/{attemptId}]/stages/{stageId}/{stageAttemptId}}): the same
 * numbers the page shows, unformatted: times in epoch ms, sizes in bytes, the stored quantiles of every metric, and
 * the kept tasks summed per executor with {@code tasksCapped} saying whether those are all of the stage's tasks, the
 * plan nodes and edges its DAG draws ({@code plan}: Spark's node ids per SQL execution) and the ids of the slowest
 * tasks the page lists, longest first.
 */
public record StagePageJson(String appId, String attemptId, int stageId, int stageAttemptId, String name,
                            String status, int numTasks, int numCompleteTasks, int numFailedTasks, int numKilledTasks,
                            long submissionTime, long completionTime, long durationMs, String failureReason,
                            List<StagePageQuery.JobLink> jobs, List<StagePageQuery.StageLink> parents,
                            List<StagePageQuery.StageLink> children, List<SqlQuery.StageOperator> operators,
                            double[] quantiles, Map<String, double[]> taskMetricsDistributions, long keptTasks,
                            long endedTasks, boolean tasksCapped, List<StagePageQuery.ExecutorSums> executors,
                            List<Attempt> attempts, List<FindingJson> findings, StagePlan plan,
                            List<Long> slowestTaskIds) {

    /** Another attempt of the same stage. */
    public record Attempt(int attemptId, String status, long submissionTime, long completionTime,
                          int numFailedTasks, String failureReason) {
    }

    public static StagePageJson of(StagePageQuery.Page p) {
        StageRow s = p.stage();
        long ended = (long) s.numCompleteTasks() + s.numFailedTasks() + s.numKilledTasks();
        return new StagePageJson(p.app().appId(), p.app().attemptId(), s.stageId(), s.attemptId(), s.name(),
                s.status(), s.numTasks(), s.numCompleteTasks(), s.numFailedTasks(), s.numKilledTasks(),
                s.submissionTime(), s.completionTime(), s.durationMs(), s.failureReason(), p.jobs(), p.parents(),
                p.children(), p.operators(), s.quantiles(), s.statistics(), p.keptTasks(), ended,
                p.keptTasks() < ended, p.executors(),
                p.attempts().stream().map(a -> new Attempt(a.attemptId(), a.status(), a.submissionTime(),
                        a.completionTime(), a.numFailedTasks(), a.failureReason())).toList(),
                p.findings().stream().map(FindingJson::of).toList(), p.plan(),
                p.slowest().stream().map(TaskRecord::taskId).toList());
    }
}
