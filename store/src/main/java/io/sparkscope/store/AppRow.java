package io.sparkscope.store;

/**
 * One line of the search page: small on purpose (the detail page reads the whole snapshot).
 *
 * @param attemptId     null when the application has no attempt id
 * @param endTime       epoch ms, -1 while running
 * @param worstSeverity "HIGH", "LOW", or null (green)
 */
public record AppRow(
        String appId,
        String attemptId,
        String name,
        String sparkUser,
        long startTime,
        long endTime,
        long durationMs,
        String status,
        int numJobs,
        int numStages,
        long numTasks,
        long numFailedTasks,
        int numFindings,
        String worstSeverity) {
}
