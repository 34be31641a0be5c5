package io.sparkscope.store.query;

import io.sparkscope.core.heuristics.Finding;

import java.util.List;

/**
 * One application panel of the search page (and one element of {@code /api/v1/apps}).
 *
 * @param attemptId null when the application has no attempt id
 * @param endTime   epoch ms, -1 when no ApplicationEnd was seen
 * @param worstSeverity HIGH, LOW or null (green)
 * @param findings  the application's findings (for the banners), in stored order
 * @param savingMs  the wall time fixing its findings could save (the root causes' estimates, at most its duration)
 * @param efficiency what its executors held against what they used; null when not computed
 */
public record AppListRow(
        long pk,
        String appId,
        String attemptId,
        String name,
        String sparkUser,
        long startTime,
        long endTime,
        long durationMs,
        AppFilter.Status status,
        int numJobs,
        int numStages,
        long numTasks,
        long numFailedTasks,
        int numFindings,
        String worstSeverity,
        List<Finding> findings,
        long savingMs,
        AppEfficiency efficiency) {
}
