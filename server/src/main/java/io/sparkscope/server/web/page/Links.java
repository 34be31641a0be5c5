package io.sparkscope.server.web.page;

import io.sparkscope.server.web.http.Urls;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the pages' links between an application's jobs, stages, SQL executions, plan operators, tasks and executors
 * lead: every such URL is built here, so a page that links "stage 3.0" or "its failed tasks" links the same place as
 * every other page does. Application ids, attempt ids and executor ids are percent-encoded ({@link Urls}).
 */
public final class Links {
    private Links() {
    }

    /** {@code /apps/{appId}[/{attemptId}]/stages/{stageId}/{stageAttemptId}}: the stage attempt's own page. */
    public static String stage(String appId, String attemptId, int stageId, int stageAttemptId) {
        return Urls.app(appId, attemptId) + "/stages/" + stageId + "/" + stageAttemptId;
    }

    /** The stage page of a stage key ("34.0", or "34" for its first attempt); null when the key is not one. */
    public static String stage(String appId, String attemptId, String stageKey) {
        int[] ids = FindingsView.parse(stageKey);
        return ids == null ? null : stage(appId, attemptId, ids[0], ids[1]);
    }

    /** The stage's row in the application page's stage table. */
    public static String stageRow(String appId, String attemptId, int stageId, int stageAttemptId) {
        return Urls.app(appId, attemptId) + "#stage-" + stageId + "." + stageAttemptId;
    }

    /**
     * The stage attempt's task table showing only tasks with {@code status} (SUCCESS, FAILED, KILLED, RUNNING; any
     * case) on {@code executorId}; either may be null for all.
     */
    public static String tasks(String appId, String attemptId, int stageId, int stageAttemptId, String status,
                               String executorId) {
        Map<String, String> q = new LinkedHashMap<>();
        q.put("status", status == null ? null : status.toLowerCase(java.util.Locale.ROOT));
        q.put("executor", executorId);
        return Urls.withQuery(Urls.stageTasks(appId, attemptId, stageId, stageAttemptId), q);
    }

    /** The stage attempt's failed task attempts (on one executor, unless {@code executorId} is null). */
    public static String failedTasks(String appId, String attemptId, int stageId, int stageAttemptId,
                                     String executorId) {
        return tasks(appId, attemptId, stageId, stageAttemptId, "failed", executorId);
    }

    /** The failed task attempts of a stage key ("34.0"); null when the key is not one. */
    public static String failedTasks(String appId, String attemptId, String stageKey, String executorId) {
        int[] ids = FindingsView.parse(stageKey);
        return ids == null ? null : failedTasks(appId, attemptId, ids[0], ids[1], executorId);
    }

    /** {@code …/sql/{executionId}}: a SQL execution's page with its plan. */
    public static String sql(String appId, String attemptId, long executionId) {
        return Urls.appTab(appId, attemptId, "sql/" + executionId);
    }

    /** A plan operator: its row in its SQL execution's operator table. */
    public static String operator(String appId, String attemptId, long executionId, long nodeId) {
        return sql(appId, attemptId, executionId) + "#node-" + nodeId;
    }

    /** A job's row in the jobs tab. */
    public static String job(String appId, String attemptId, int jobId) {
        return Urls.appTab(appId, attemptId, "jobs") + "#" + jobAnchor(jobId);
    }

    /** The element id of a job's row in the jobs tab. */
    public static String jobAnchor(int jobId) {
        return "job-" + jobId;
    }

    /** {@code …/executors/{executorId}}: an executor's page, with the stages it ran tasks in. */
    public static String executor(String appId, String attemptId, String executorId) {
        return Urls.appTab(appId, attemptId, "executors") + "/" + Urls.enc(executorId);
    }

    /** Ids in ascending order, each once: how id lists read on every page. */
    public static List<Integer> sorted(List<Integer> ids) {
        return ids.stream().distinct().sorted().toList();
    }
}
