package io.sparkscope.store.query;

/**
 * Filters, sort and page of the search page and {@code /api/v1/apps}. Values are already validated by the caller
 * (the web layer turns bad input into 400s); null = no filter. Times are epoch ms, bounds inclusive.
 *
 * @param appId        exact application id
 * @param nameContains case-insensitive substring of the application name (LIKE wildcards are matched literally)
 * @param user         exact Spark user
 * @param severity     worst finding of the application: HIGH, LOW or NONE (green)
 * @param heuristic    applications with at least one finding of this heuristic id
 * @param status       see {@link Status}
 * @param now          the clock for {@link Status#RUNNING} vs {@link Status#INCOMPLETE}
 * @param minWastedCoreHours applications with at least this many idle core-hours (never those not computed)
 */
public record AppFilter(
        String appId,
        String nameContains,
        String user,
        Long startedFrom,
        Long startedTo,
        Long endedFrom,
        Long endedTo,
        String severity,
        String heuristic,
        Status status,
        Sort sort,
        boolean descending,
        int limit,
        int offset,
        long now,
        Double minWastedCoreHours) {

    /**
     * An application never seen ending is RUNNING while events keep arriving and INCOMPLETE once it has been silent
     * for {@link #STALE_AFTER_MS} (its log was cut, or the driver died without an ApplicationEnd).
     */
    public enum Status { RUNNING, COMPLETE, INCOMPLETE }

    /**
     * SAVING: by the wall time fixing the application's findings could save (root causes only). WASTE: by idle
     * core-hours (applications whose figures were not computed come after all others).
     */
    public enum Sort { START, DURATION, SAVING, WASTE }

    public static final long STALE_AFTER_MS = 60 * 60 * 1000L;
    public static final int MAX_LIMIT = 500;

    public AppFilter {
        sort = sort == null ? Sort.START : sort;
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1…" + MAX_LIMIT);
        }
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be ≥ 0");
        }
        if (minWastedCoreHours != null && !(minWastedCoreHours >= 0 && Double.isFinite(minWastedCoreHours))) {
            throw new IllegalArgumentException("minWastedCoreHours must be a number of at least 0");
        }
        if (severity != null && !severity.equals("HIGH") && !severity.equals("LOW") && !severity.equals("NONE")) {
            throw new IllegalArgumentException("severity must be HIGH, LOW or NONE");
        }
    }

    /** Without the idle core-hours filter. */
    public AppFilter(String appId, String nameContains, String user, Long startedFrom, Long startedTo, Long endedFrom,
                     Long endedTo, String severity, String heuristic, Status status, Sort sort, boolean descending,
                     int limit, int offset, long now) {
        this(appId, nameContains, user, startedFrom, startedTo, endedFrom, endedTo, severity, heuristic, status, sort,
                descending, limit, offset, now, null);
    }

    public static AppFilter all(long now) {
        return new AppFilter(null, null, null, null, null, null, null, null, null, null, Sort.START, true, 50, 0, now);
    }

    /** Status of one row as the UI shows it, by the same rule as the filter. */
    public static Status statusOf(boolean complete, long lastEventTime, long now) {
        if (complete) {
            return Status.COMPLETE;
        }
        return lastEventTime < now - STALE_AFTER_MS ? Status.INCOMPLETE : Status.RUNNING;
    }
}
