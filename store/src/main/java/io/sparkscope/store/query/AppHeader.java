package io.sparkscope.store.query;

/**
 * The application row: identity and the aggregates the writer computed, enough for the detail page's metrics and
 * for comparing runs without reading any task.
 *
 * @param attemptId null when the application has no attempt id
 * @param endTime   epoch ms, -1 when no ApplicationEnd was seen
 * @param jobKey    the job its runs are grouped under for history, Regression and prediction; null for an
 *                  interactive session (or a row stored before schema V8, until reanalyzed)
 * @param efficiency what its executors held against what they used; null when not computed (a row stored before
 *                  schema V17, until reanalyzed)
 */
public record AppHeader(
        long pk,
        String appId,
        String attemptId,
        String name,
        String sparkUser,
        String sparkVersion,
        long startTime,
        long endTime,
        long lastEventTime,
        long durationMs,
        boolean complete,
        AppFilter.Status status,
        int numJobs,
        int numFailedJobs,
        int numStages,
        int numFailedStages,
        long numTasks,
        long numFailedTasks,
        int numExecutors,
        long totalTaskTimeMs,
        long totalRunTimeMs,
        long totalCpuTimeNs,
        long totalGcTimeMs,
        long memoryBytesSpilled,
        long diskBytesSpilled,
        long shuffleReadBytes,
        long shuffleWriteBytes,
        long inputBytes,
        long outputBytes,
        long driverGcTimeMs,
        int numFindings,
        String worstSeverity,
        String jobKey,
        AppEfficiency efficiency) {

    /** The {@code /apps/…} path segment(s) of this attempt. */
    public String pathKey() {
        return attemptId == null ? appId : appId + "/" + attemptId;
    }
}
