package io.sparkscope.server.web.http;

import io.javalin.http.Context;
import io.sparkscope.core.model.Lineage;
import io.sparkscope.store.query.AppFilter;
import io.sparkscope.store.query.SearchCursor;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The search filters as they live in the URL (shared by {@code /apps} and {@code /api/v1/apps}): parsed and
 * validated into an {@link AppFilter}, and kept as a parameter map so pages can link to "the same search, but …".
 */
public record SearchParams(AppFilter filter, Map<String, String> query, int page) {
    public static final int PAGE_SIZE = 50;

    /** Quick ranges for "started in the last …" (relative, so a shared link keeps meaning "recent"). */
    public enum Since {
        H1(3600_000L, "1h", "last hour"), D1(24 * 3600_000L, "1d", "last day"), W1(7 * 24 * 3600_000L, "1w", "last week");

        public final long ms;
        public final String param;
        public final String label;

        Since(long ms, String param, String label) {
            this.ms = ms;
            this.param = param;
            this.label = label;
        }
    }

    /** WASTE: by idle core-hours, the most first (applications without figures last). */
    public enum SortKey { START, DURATION, SAVING, WASTE }

    /** Largest {@code minWaste} one can ask for (idle core-hours). */
    public static final double MAX_WASTE_FILTER = 1e9;

    public enum Order { DESC, ASC }

    /**
     * @param api true for the JSON API: paging by limit/offset instead of page
     */
    public static SearchParams parse(Context ctx, long now, boolean api) {
        return parse(Query.of(ctx), now, api);
    }

    /** As {@link #parse(Context, long, boolean)}, from any source of parameters. */
    public static SearchParams parse(Query in, long now, boolean api) {
        Map<String, String> q = new LinkedHashMap<>();
        String appId = keep(q, "appId", Params.id(in, "appId"));
        String name = keep(q, "name", Params.text(in, "name"));
        String user = keep(q, "user", Params.text(in, "user"));
        Long startedFrom = Params.time(in, "startedFrom", false);
        Long startedTo = Params.time(in, "startedTo", true);
        Long endedFrom = Params.time(in, "endedFrom", false);
        Long endedTo = Params.time(in, "endedTo", true);
        keep(q, "startedFrom", Params.text(in, "startedFrom"));
        keep(q, "startedTo", Params.text(in, "startedTo"));
        keep(q, "endedFrom", Params.text(in, "endedFrom"));
        keep(q, "endedTo", Params.text(in, "endedTo"));
        String since = Params.text(in, "since");
        if (since != null) {
            Since s = null;
            for (Since x : Since.values()) {
                if (x.param.equals(since)) {
                    s = x;
                }
            }
            if (s == null) {
                throw WebException.badParam("since", "'" + since + "' is not one of 1h, 1d, 1w");
            }
            q.put("since", s.param);
            long from = now - s.ms;
            startedFrom = startedFrom == null ? from : Math.max(startedFrom, from);
        }
        checkRange("startedTo", startedFrom, startedTo);
        checkRange("endedTo", endedFrom, endedTo);
        String severity = null;
        String sev = Params.text(in, "severity");
        if (sev != null) {
            severity = switch (sev.toUpperCase(Locale.ROOT)) {
                case "HIGH", "RED" -> "HIGH";
                case "LOW", "YELLOW" -> "LOW";
                case "NONE", "GREEN" -> "NONE";
                default -> throw WebException.badParam("severity", "'" + sev + "' is not one of high, low, none");
            };
            q.put("severity", severity.toLowerCase(Locale.ROOT));
        }
        String heuristic = keep(q, "heuristic", Params.heuristic(in, "heuristic"));
        Double minWaste = Params.decimal(in, "minWaste", 0, MAX_WASTE_FILTER);
        keep(q, "minWaste", Params.text(in, "minWaste"));
        AppFilter.Status status = Params.enumValue(in, "status", AppFilter.Status.class);
        if (status != null) {
            q.put("status", status.name().toLowerCase(Locale.ROOT));
        }
        SortKey sort = Params.enumValue(in, "sort", SortKey.class);
        Order order = Params.enumValue(in, "order", Order.class);
        if (sort != null) {
            q.put("sort", sort.name().toLowerCase(Locale.ROOT));
        }
        if (order != null) {
            q.put("order", order.name().toLowerCase(Locale.ROOT));
        }
        int limit;
        int offset;
        int page = 1;
        if (api) {
            limit = Params.intValue(in, "limit", PAGE_SIZE, 1, AppFilter.MAX_LIMIT);
            offset = Params.intValue(in, "offset", 0, 0, 10_000_000);
        } else {
            page = Params.intValue(in, "page", 1, 1, 200_000);
            limit = PAGE_SIZE;
            offset = (page - 1) * PAGE_SIZE;
        }
        AppFilter.Sort by = sort == null ? AppFilter.Sort.START : AppFilter.Sort.valueOf(sort.name());
        AppFilter f = new AppFilter(appId, name, user, startedFrom, startedTo, endedFrom, endedTo, severity, heuristic,
                status, by, order != Order.ASC, limit, offset, now, minWaste);
        // The cursor is not kept in the query map: every link made from it ("this search, but …") starts over.
        return new SearchParams(f.withScheduler(scheduler(in, q)).withCursor(cursor(in, by)), q, page);
    }

    /** Keyset paging: the pager's links carry the row the next page starts after, or the previous one ends before. */
    public static final String AFTER = "after";
    public static final String BEFORE = "before";

    private static SearchCursor cursor(Query in, AppFilter.Sort sort) {
        String after = Params.text(in, AFTER);
        String before = Params.text(in, BEFORE);
        if (after != null && before != null) {
            throw WebException.badParam(BEFORE, "cannot be given with '" + AFTER + "'");
        }
        String name = after != null ? AFTER : BEFORE;
        String text = after != null ? after : before;
        if (text == null) {
            return null;
        }
        try {
            return SearchCursor.parse(text, sort, before != null);
        } catch (IllegalArgumentException e) {
            throw WebException.badParam(name, e.getMessage());
        }
    }

    /** Names of the scheduler filters: Airflow DAG and task, OpenLineage parent job, and a task's or DAG's run. */
    public static final String DAG = "dag";
    public static final String TASK = "task";
    public static final String PARENT_JOB = "parentJob";
    public static final String PARENT_RUN = "parentRun";

    private static AppFilter.Scheduler scheduler(Query in, Map<String, String> q) {
        String dag = keep(q, DAG, Params.text(in, DAG));
        String task = keep(q, TASK, Params.text(in, TASK));
        String job = keep(q, PARENT_JOB, Params.text(in, PARENT_JOB));
        String run = Params.text(in, PARENT_RUN);
        if (run != null && !Lineage.UUID.matcher(run).matches()) {
            throw WebException.badParam(PARENT_RUN, "'" + run + "' is not a run id (a UUID, as OpenLineage and"
                    + " Airflow give it)");
        }
        keep(q, PARENT_RUN, run);
        return AppFilter.Scheduler.of(dag, task, job, run);
    }

    private static void checkRange(String name, Long from, Long to) {
        if (from != null && to != null && to < from) {
            throw WebException.badParam(name, "ends before the range starts");
        }
    }

    private static String keep(Map<String, String> q, String name, String value) {
        if (value != null) {
            q.put(name, value);
        }
        return value;
    }
}
