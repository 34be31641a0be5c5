package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.analysis.timeline.NoTaskGaps;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.TaskSpanSummary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The application's time with no task running anywhere, split by what the driver was doing, because only one part
 * of it is something a user can shorten:
 * <ul>
 *   <li><b>start-up</b>: from the application's start to its first job or SQL query (JVM, SparkContext, the user's
 *       code before its first action), or on to the first executor's registration when the first job waited for
 *       one (a cluster granting containers);</li>
 *   <li><b>driver work</b>: while a job or SQL query runs without tasks (planning, listing files, collecting
 *       results), and in a batch application every stretch between jobs (driver loops, collect() then local work);
 *   </li>
 *   <li><b>waiting</b>: an interactive session between commands (a person thinking), a streaming query between
 *       its triggers, and a batch program idle between its jobs: no job or query in progress, executors of its own
 *       held, and the job before handed the driver almost nothing to work on (at most {@link #SMALL_RESULT_BYTES}:
 *       a program sleeping, or waiting on something outside Spark, reads so);</li>
 *   <li><b>streaming batch work</b>: inside a streaming query's micro-batch while no task runs (planning, offsets,
 *       the commit log). It is part of the batch's duration, which the streaming rules judge against the
 *       trigger, so it is kept apart from the driver work a program could move off the driver.</li>
 * </ul>
 * All from the events' own times: the stages' task spans, the jobs' and SQL queries' start and end, the streaming
 * batches. Sorting the spans makes it O(n log n) in stages, jobs and batches.
 */
public final class NoTaskTime {
    private NoTaskTime() {
    }

    /**
     * Task results of the job before a stretch between jobs up to which a batch driver has nothing of Spark's to work
     * on: a count or a sum comes back in a few KiB, a collect() of rows to loop over in MiBs.
     */
    static final long SMALL_RESULT_BYTES = 1L << 20;

    /** What the driver was doing while no task ran. */
    public enum Kind {
        STARTUP("start-up"), DRIVER_WORK("driver work"), WAITING("waiting"),
        STREAMING_BATCH("streaming batch work");

        private final String words;

        Kind(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** How the application is driven: a program, a person at a shell or notebook, or a streaming query's triggers. */
    public enum Session { BATCH, INTERACTIVE, STREAMING }

    /** A stretch with no task running, between the stages {@code after} and {@code before} (null: none). */
    public record Gap(long from, long to, String after, String before, Kind kind) {
        public long durationMs() {
            return to - from;
        }
    }

    /**
     * @param appMs         the application's wall time
     * @param startupMs     no-task time before the first job or query
     * @param driverWorkMs  no-task time the driver spent working
     * @param waitingMs     no-task time spent waiting for a person or a trigger
     * @param batchMs       no-task time inside streaming micro-batches (judged by the streaming rules)
     * @param session       how the application is driven
     * @param sessionReason what showed it ("spark.repl.class.uri is set", "2 streaming queries"), "" for a batch
     * @param gaps          the stretches with no task running, each cut where its kind changes, longest first
     */
    public record Split(long appMs, long startupMs, long driverWorkMs, long waitingMs, long batchMs, Session session,
                        String sessionReason, List<Gap> gaps) {
        public Split {
            gaps = List.copyOf(gaps);
        }

        public long noTaskMs() {
            return startupMs + driverWorkMs + waitingMs + batchMs;
        }

        public long ms(Kind kind) {
            return switch (kind) {
                case STARTUP -> startupMs;
                case DRIVER_WORK -> driverWorkMs;
                case WAITING -> waitingMs;
                case STREAMING_BATCH -> batchMs;
            };
        }

        /** The kind holding the most no-task time. */
        public Kind largest() {
            Kind best = Kind.DRIVER_WORK;
            for (Kind k : Kind.values()) {
                if (ms(k) > ms(best)) {
                    best = k;
                }
            }
            return best;
        }
    }

    /** The split, or null when no task times are known (no stages, or a cut log): nothing to compare against. */
    public static Split of(AppSnapshot app) {
        long appMs = app.durationMs();
        if (appMs <= 0) {
            return null;
        }
        long start = app.startTime();
        long end = start + appMs;
        List<Gap> raw = rawGaps(app, start, end);
        if (raw == null) {
            return null;
        }
        Session session = session(app);
        String reason = sessionReason(app);
        long startupEnd = firstAction(app, start, end);
        if (session == Session.INTERACTIVE) {
            startupEnd = Math.min(startupEnd, ready(app, startupEnd));
        }
        // No task can run before the first executor has registered: until then the driver waits for executors (a
        // cluster granting containers, executor JVMs starting), which no change to the program shortens.
        startupEnd = Math.max(startupEnd, Math.min(end, firstExecutor(app)));
        // Driver work: any job or SQL query in progress; a streaming batch counts too (its planning and offsets).
        List<long[]> active = new ArrayList<>();
        for (JobSummary j : app.jobs()) {
            addSpan(active, j.submissionTime(), j.completionTime(), end);
        }
        for (SqlExecutionSummary q : app.sqlExecutions()) {
            addSpan(active, q.startTime(), q.endTime(), end);
        }
        List<long[]> queryRuns = new ArrayList<>();
        List<long[]> batches = new ArrayList<>();
        for (StreamingQuerySummary q : app.streamingQueries()) {
            for (StreamingBatch b : q.recentBatches()) {
                addSpan(active, b.timestamp(), b.endTime(), end);
                addSpan(batches, b.timestamp(), b.endTime(), end);
            }
            StreamingBatch first = q.recentBatches().isEmpty() ? null : q.recentBatches().get(0);
            long from = q.startTime() > 0 ? q.startTime() : first == null ? -1 : first.timestamp();
            addSpan(queryRuns, from, q.endTime(), end);
        }
        active = merged(active);
        queryRuns = merged(queryRuns);
        batches = merged(batches);
        List<Gap> gaps = new ArrayList<>();
        long startup = 0;
        long work = 0;
        long waiting = 0;
        long batch = 0;
        for (Gap g : raw) {
            if (g.kind() == Kind.DRIVER_WORK) {
                gaps.add(g); // folded stages' gaps known only as a sum
                work += g.durationMs();
                continue;
            }
            long cut = Math.min(g.to(), Math.max(g.from(), startupEnd));
            if (cut > g.from()) {
                gaps.add(new Gap(g.from(), cut, g.after(), g.before(), Kind.STARTUP));
                startup += cut - g.from();
            }
            // The rest, cut at the edges of the driver's activity.
            for (long[] piece : pieces(Math.max(cut, g.from()), g.to(), active)) {
                List<long[]> parts = List.of(piece);
                if (session == Session.STREAMING) {
                    // Between triggers a query only waits; outside any query run it is the program's driver time.
                    // Inside a micro-batch it is the batch's own work, judged with the batch.
                    parts = pieces(piece[0], piece[1], piece[2] == 0 ? queryRuns : batches);
                }
                for (long[] part : parts) {
                    Kind kind = piece[2] == 1 && session == Session.STREAMING && part[2] == 1 ? Kind.STREAMING_BATCH
                            : kind(session, piece[2] == 1, piece[2] == 1 || part[2] == 1);
                    if (kind == Kind.DRIVER_WORK && session == Session.BATCH && piece[2] == 0
                            && g.before() != null && idleBetweenJobs(app, g.after(), part[0], part[1])) {
                        kind = Kind.WAITING;
                    }
                    long ms = part[1] - part[0];
                    switch (kind) {
                        case WAITING -> waiting += ms;
                        case STREAMING_BATCH -> batch += ms;
                        default -> work += ms;
                    }
                    gaps.add(new Gap(part[0], part[1], g.after(), g.before(), kind));
                }
            }
        }
        gaps.sort(Comparator.comparingLong(Gap::durationMs).reversed());
        return new Split(appMs, startup, work, waiting, batch, session, reason, gaps);
    }

    /**
     * Whether a batch program's driver was idle between {@code from} and {@code to}, outside any job or query: executors
     * of its own were held through it (so the cost of the stretch is theirs for certain) and the stage before it
     * handed the driver at most {@link #SMALL_RESULT_BYTES} of task results. An event log cannot show the driver's
     * thread; a driver with nothing collected and no job running reads as one that sleeps or waits outside Spark,
     * and moving work off it would save nothing.
     */
    private static boolean idleBetweenJobs(AppSnapshot app, String afterStage, long from, long to) {
        if (afterStage == null || SparkSettings.of(app).isLocal()) {
            return false; // local mode: the driver runs the tasks, no executor of its own waits for it
        }
        boolean held = false;
        for (ExecutorSummary e : app.executors()) {
            if (!e.isDriver() && e.addTime() > 0 && e.addTime() <= from
                    && (e.removeTime() <= 0 || e.removeTime() >= to)) {
                held = true;
                break;
            }
        }
        if (!held) {
            return false;
        }
        for (StageSummary s : app.stages()) {
            if (afterStage.equals(s.key())) {
                return s.totals() != null && s.totals().get(TaskMetric.RESULT_SIZE) <= SMALL_RESULT_BYTES;
            }
        }
        return false;
    }

    // A job, query or batch in progress is driver work; outside them a shell waits for its user, a streaming query
    // (inside its run) for its trigger, and a batch program's driver works between its jobs.
    private static Kind kind(Session session, boolean inAction, boolean inQueryRun) {
        if (inAction) {
            return Kind.DRIVER_WORK;
        }
        return switch (session) {
            case INTERACTIVE -> Kind.WAITING;
            case STREAMING -> inQueryRun ? Kind.WAITING : Kind.DRIVER_WORK;
            case BATCH -> Kind.DRIVER_WORK;
        };
    }

    /** How the application is driven, from its settings and its streaming queries. */
    public static Session session(AppSnapshot app) {
        if (!app.streamingQueries().isEmpty()) {
            return Session.STREAMING;
        }
        return sessionReason(app).isEmpty() ? Session.BATCH : Session.INTERACTIVE;
    }

    /**
     * Why the application reads as a streaming or interactive one: the streaming queries, or the setting a shell or
     * notebook leaves behind; "" for a batch program.
     */
    static String sessionReason(AppSnapshot app) {
        int queries = app.streamingQueries().size();
        if (queries > 0) {
            return queries == 1 ? "a streaming query" : queries + " streaming queries";
        }
        var conf = app.config();
        // The Scala shell (and the Livy and Zeppelin Scala interpreters) serve the classes typed into them.
        for (String k : List.of("spark.repl.class.uri", "spark.repl.class.outputDir")) {
            if (conf.get(k).filter(v -> !v.isBlank()).isPresent()) {
                return k + " is set (a Scala shell)";
            }
        }
        String name = conf.get("spark.app.name").orElse(app.appName() == null ? "" : app.appName()).trim();
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.equals("spark shell") || lower.equals("pysparkshell") || lower.equals("sparkr")
                || lower.startsWith("livy-session-") || lower.startsWith("zeppelin") || lower.contains("notebook")) {
            return "the application is named '" + name + "', a shell or notebook";
        }
        String command = conf.systemProperties().getOrDefault("sun.java.command", "");
        for (String shell : List.of("pyspark-shell", "sparkr-shell", "org.apache.spark.repl.Main",
                "org.apache.livy.", "org.apache.zeppelin.", "ipykernel", "jupyter")) {
            if (command.contains(shell)) {
                return "the driver was started as " + shell + ", a shell or notebook";
            }
        }
        for (String k : conf.sparkProperties().keySet()) {
            if (k.startsWith("spark.livy.") || k.startsWith("zeppelin.") || k.startsWith("spark.zeppelin.")
                    || k.equals("spark.databricks.notebook.path") || k.equals("spark.databricks.notebook.id")) {
                return k + " is set (a notebook or Livy session)";
            }
        }
        return "";
    }

    /**
     * When an interactive session was ready for its first command: the driver's block manager and the executors
     * registered by then (a shell waits for them before its prompt); from there to the first command a person was
     * typing, not the application starting. {@code firstAction} when no registration is known before it.
     */
    private static long ready(AppSnapshot app, long firstAction) {
        long ready = -1;
        for (ExecutorSummary e : app.executors()) {
            if (e.addTime() > 0 && e.addTime() <= firstAction) {
                ready = Math.max(ready, e.addTime());
            }
        }
        return ready > 0 ? ready : firstAction;
    }

    /**
     * When the first executor apart from the driver registered, if no task ran before it; the application's start
     * otherwise (local mode, where the driver runs the tasks; or a snapshot that no longer holds the first executors).
     */
    private static long firstExecutor(AppSnapshot app) {
        long first = Long.MAX_VALUE;
        for (ExecutorSummary e : app.executors()) {
            if (!"driver".equals(e.executorId()) && e.addTime() > 0) {
                first = Math.min(first, e.addTime());
            }
        }
        if (first == Long.MAX_VALUE) {
            return app.startTime();
        }
        TaskSpanSummary spans = app.totals().taskSpans();
        if (spans != null && spans.from() > 0 && spans.from() < first) {
            return app.startTime();
        }
        for (StageSummary s : app.stages()) {
            if (s.firstTaskLaunchedTime() > 0 && s.firstTaskLaunchedTime() < first) {
                return app.startTime();
            }
        }
        return first;
    }

    // The application's first job or SQL query, or its first task when neither is known.
    private static long firstAction(AppSnapshot app, long start, long end) {
        long first = Long.MAX_VALUE;
        for (JobSummary j : app.jobs()) {
            if (j.submissionTime() >= start) {
                first = Math.min(first, j.submissionTime());
            }
        }
        for (SqlExecutionSummary q : app.sqlExecutions()) {
            if (q.startTime() >= start) {
                first = Math.min(first, q.startTime());
            }
        }
        for (StreamingQuerySummary q : app.streamingQueries()) {
            if (q.startTime() >= start) {
                first = Math.min(first, q.startTime());
            }
        }
        if (first == Long.MAX_VALUE) {
            TaskSpanSummary earlier = app.totals().taskSpans();
            if (earlier != null) {
                // Jobs that left a long-running application's snapshot: its first job came before any kept one.
                first = Math.min(first, earlier.from() > start ? earlier.from() : start);
            }
            for (StageSummary s : app.stages()) {
                if (s.firstTaskLaunchedTime() > 0) {
                    first = Math.min(first, s.firstTaskLaunchedTime());
                }
            }
        }
        return first == Long.MAX_VALUE ? start : Math.min(end, first);
    }

    // Application time minus the union of the stages' task spans [first launch, last finish], in time order
    // (NoTaskGaps); null when no stage launched a task and none left the snapshot.
    private static List<Gap> rawGaps(AppSnapshot app, long start, long end) {
        // Stages that left a long-running application's snapshot are summed up in the run's totals: the sweep
        // continues where their spans end, with their longest gaps.
        TaskSpanSummary earlier = app.totals().taskSpans();
        if (earlier == null && app.stages().stream().noneMatch(s -> s.firstTaskLaunchedTime() > 0)) {
            return null;
        }
        List<Gap> gaps = new ArrayList<>();
        long cursor = start;
        String previous = null;
        if (earlier != null) {
            if (earlier.from() > start) {
                gaps.add(new Gap(start, earlier.from(), null, null, null));
            }
            for (TaskSpanSummary.Gap g : earlier.longestGaps()) {
                gaps.add(new Gap(g.from(), g.to(), g.after(), g.before(), null));
            }
            // Gaps of the folded stages beyond their longest few are not known one by one: they count as driver
            // work, the kind a program's gaps between jobs are.
            long folded = Math.max(0, Math.min(end, earlier.to()) - start);
            long known = earlier.busyMs();
            for (Gap g : gaps) {
                known += g.durationMs();
            }
            if (folded > known) {
                long from = Math.max(start, Math.min(end, earlier.to()) - (folded - known));
                gaps.add(new Gap(from, from + (folded - known), null, null, Kind.DRIVER_WORK));
            }
            cursor = Math.max(start, Math.min(end, earlier.to()));
            previous = earlier.lastStage();
        }
        for (NoTaskGaps.Gap g : NoTaskGaps.of(app.stages(), start, end, cursor, previous)) {
            gaps.add(new Gap(g.from(), g.to(), g.after(), g.before(), null));
        }
        return gaps;
    }

    private static void addSpan(List<long[]> spans, long from, long to, long end) {
        if (from <= 0) {
            return;
        }
        long until = to > 0 ? Math.min(to, end) : end;
        if (until > from) {
            spans.add(new long[]{from, until});
        }
    }

    private static List<long[]> merged(List<long[]> spans) {
        spans.sort(Comparator.comparingLong(s -> s[0]));
        List<long[]> out = new ArrayList<>();
        for (long[] s : spans) {
            long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && s[0] <= last[1]) {
                last[1] = Math.max(last[1], s[1]);
            } else {
                out.add(new long[]{s[0], s[1]});
            }
        }
        return out;
    }

    // [from, to) cut at the edges of the merged spans: {from, to, 1 inside a span / 0 outside}.
    private static List<long[]> pieces(long from, long to, List<long[]> merged) {
        List<long[]> out = new ArrayList<>();
        long cursor = from;
        for (int i = firstEndingAfter(merged, from); i < merged.size() && cursor < to; i++) {
            long[] s = merged.get(i);
            if (s[0] >= to) {
                break;
            }
            if (s[0] > cursor) {
                out.add(new long[]{cursor, s[0], 0});
                cursor = s[0];
            }
            long until = Math.min(to, s[1]);
            if (until > cursor) {
                out.add(new long[]{cursor, until, 1});
                cursor = until;
            }
        }
        if (cursor < to) {
            out.add(new long[]{cursor, to, 0});
        }
        return out;
    }

    // Binary search: the first merged span that ends after t (the spans are disjoint and sorted).
    private static int firstEndingAfter(List<long[]> merged, long t) {
        int lo = 0;
        int hi = merged.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (merged.get(mid)[1] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
