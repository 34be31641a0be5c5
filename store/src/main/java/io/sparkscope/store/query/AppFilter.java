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
 * @param scheduler    applications a scheduler started, by its job and run; null = no filter
 * @param cursor       keyset paging: the page starts after (or ends before) this row, and {@code offset} is only the
 *                     page's position for the counts (no row is skipped by it); null = paging by offset
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
        Double minWastedCoreHours,
        Scheduler scheduler,
        SearchCursor cursor) {

    /**
     * The scheduler's job and run, each exact; null parts match anything.
     *
     * @param dag  Airflow DAG id
     * @param task Airflow task id
     * @param job  OpenLineage parent job name ({@code <dag_id>.<task_id>} from Airflow)
     * @param run  a run id: the parent run (the task's run) or the root run (the DAG run)
     */
    public record Scheduler(String dag, String task, String job, String run) {
        public Scheduler {
            dag = blankToNull(dag);
            task = blankToNull(task);
            job = blankToNull(job);
            run = blankToNull(run);
            if (run != null) {
                run = run.toLowerCase(java.util.Locale.ROOT); // stored in lower case
            }
        }

        /** Null when no part is set, so "no filter" has one form. */
        public static Scheduler of(String dag, String task, String job, String run) {
            Scheduler s = new Scheduler(dag, task, job, run);
            return s.dag == null && s.task == null && s.job == null && s.run == null ? null : s;
        }

        private static String blankToNull(String v) {
            return v == null || v.isBlank() ? null : v.strip();
        }
    }

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
        if (cursor != null && !(sort == Sort.WASTE ? cursor.value() == null || cursor.value() instanceof Double
                : cursor.value() instanceof Long)) {
            throw new IllegalArgumentException("the cursor's sort key is not one of the sort by "
                    + sort.name().toLowerCase(java.util.Locale.ROOT));
        }
        if (severity != null && !severity.equals("HIGH") && !severity.equals("LOW") && !severity.equals("NONE")) {
            throw new IllegalArgumentException("severity must be HIGH, LOW or NONE");
        }
    }

    /** Paging by offset. */
    public AppFilter(String appId, String nameContains, String user, Long startedFrom, Long startedTo, Long endedFrom,
                     Long endedTo, String severity, String heuristic, Status status, Sort sort, boolean descending,
                     int limit, int offset, long now, Double minWastedCoreHours, Scheduler scheduler) {
        this(appId, nameContains, user, startedFrom, startedTo, endedFrom, endedTo, severity, heuristic, status, sort,
                descending, limit, offset, now, minWastedCoreHours, scheduler, null);
    }

    /** Without the scheduler filter. */
    public AppFilter(String appId, String nameContains, String user, Long startedFrom, Long startedTo, Long endedFrom,
                     Long endedTo, String severity, String heuristic, Status status, Sort sort, boolean descending,
                     int limit, int offset, long now, Double minWastedCoreHours) {
        this(appId, nameContains, user, startedFrom, startedTo, endedFrom, endedTo, severity, heuristic, status, sort,
                descending, limit, offset, now, minWastedCoreHours, null);
    }

    /** The same filter with the scheduler's job and run. */
    public AppFilter withScheduler(Scheduler s) {
        return new AppFilter(appId, nameContains, user, startedFrom, startedTo, endedFrom, endedTo, severity,
                heuristic, status, sort, descending, limit, offset, now, minWastedCoreHours, s, cursor);
    }

    /** The same filter paged by this cursor (null: by offset). */
    public AppFilter withCursor(SearchCursor c) {
        return new AppFilter(appId, nameContains, user, startedFrom, startedTo, endedFrom, endedTo, severity,
                heuristic, status, sort, descending, limit, offset, now, minWastedCoreHours, scheduler, c);
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
