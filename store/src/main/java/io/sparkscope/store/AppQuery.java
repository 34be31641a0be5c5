package io.sparkscope.store;

/**
 * Filters, sort and page of the application list. Every field is optional (null = no filter); time bounds are
 * epoch ms, inclusive. Build with {@link #all()} and the {@code with…} methods.
 *
 * @param appId        exact application id
 * @param nameContains case-insensitive substring of the name (LIKE wildcards in it are matched literally)
 * @param severity     "HIGH", "LOW" or "NONE": the application's worst finding
 * @param heuristic    applications with at least one finding of this heuristic
 * @param status       "RUNNING" or "COMPLETE"
 */
public record AppQuery(
        String appId,
        String nameContains,
        String user,
        Long startedFrom,
        Long startedTo,
        Long endedFrom,
        Long endedTo,
        String status,
        String severity,
        String heuristic,
        Sort sort,
        boolean descending,
        int limit,
        int offset) {

    public static final int MAX_LIMIT = 1000;

    public enum Sort { START, DURATION }

    public AppQuery {
        sort = sort == null ? Sort.START : sort;
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1…" + MAX_LIMIT + ", got " + limit);
        }
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be ≥ 0, got " + offset);
        }
        if (severity != null && !severity.equals("HIGH") && !severity.equals("LOW") && !severity.equals("NONE")) {
            throw new IllegalArgumentException("severity must be HIGH, LOW or NONE, got " + severity);
        }
        if (status != null && !status.equals("RUNNING") && !status.equals("COMPLETE")) {
            throw new IllegalArgumentException("status must be RUNNING or COMPLETE, got " + status);
        }
    }

    /** Newest first, 50 per page, no filter. */
    public static AppQuery all() {
        return new AppQuery(null, null, null, null, null, null, null, null, null, null, Sort.START, true, 50, 0);
    }

    public AppQuery withAppId(String v) {
        return new AppQuery(v, nameContains, user, startedFrom, startedTo, endedFrom, endedTo, status, severity, heuristic, sort, descending, limit, offset);
    }

    public AppQuery withNameContains(String v) {
        return new AppQuery(appId, v, user, startedFrom, startedTo, endedFrom, endedTo, status, severity, heuristic, sort, descending, limit, offset);
    }

    public AppQuery withUser(String v) {
        return new AppQuery(appId, nameContains, v, startedFrom, startedTo, endedFrom, endedTo, status, severity, heuristic, sort, descending, limit, offset);
    }

    public AppQuery withStartedBetween(Long from, Long to) {
        return new AppQuery(appId, nameContains, user, from, to, endedFrom, endedTo, status, severity, heuristic, sort, descending, limit, offset);
    }

    public AppQuery withEndedBetween(Long from, Long to) {
        return new AppQuery(appId, nameContains, user, startedFrom, startedTo, from, to, status, severity, heuristic, sort, descending, limit, offset);
    }

    public AppQuery withStatus(String v) {
        return new AppQuery(appId, nameContains, user, startedFrom, startedTo, endedFrom, endedTo, v, severity, heuristic, sort, descending, limit, offset);
    }

    public AppQuery withSeverity(String v) {
        return new AppQuery(appId, nameContains, user, startedFrom, startedTo, endedFrom, endedTo, status, v, heuristic, sort, descending, limit, offset);
    }

    public AppQuery withHeuristic(String v) {
        return new AppQuery(appId, nameContains, user, startedFrom, startedTo, endedFrom, endedTo, status, severity, v, sort, descending, limit, offset);
    }

    public AppQuery sortedBy(Sort s, boolean desc) {
        return new AppQuery(appId, nameContains, user, startedFrom, startedTo, endedFrom, endedTo, status, severity, heuristic, s, desc, limit, offset);
    }

    public AppQuery page(int newLimit, int newOffset) {
        return new AppQuery(appId, nameContains, user, startedFrom, startedTo, endedFrom, endedTo, status, severity, heuristic, sort, descending, newLimit, newOffset);
    }
}
