package io.sparkscope.core.eventlog;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks that span events: a task's finish against its launch, a stage's completion against its submission (and
 * likewise for jobs, executors, SQL executions and the application), a task's index against its stage's task
 * count, and an application id that is missing. What one field cannot tell alone, the events before it can.
 *
 * <p>The rule for a pair of times is Spark's own clock: the driver stamps both, so an end before its start is a
 * corrupted value, never clock skew. The later-arriving time of the pair is the one treated as unknown, since it
 * is the one that contradicts what was already read. Every time in these records has an unknown marker (-1; a
 * task's finish time 0, which makes its duration 0), so no event is lost over a bad time.
 *
 * <p>Memory is fixed: each remembered table keeps at most {@value #REMEMBERED} entries (least recently used go
 * first, which only loses a cross-check).
 */
final class Consistency {
    static final int REMEMBERED = 100_000;

    /** Spark's application id shapes (YARN, standalone, local, Kubernetes), with an optional {@code _<attempt>}. */
    private static final Pattern SPARK_APP_ID = Pattern.compile(
            "(application_\\d+_\\d+|app-\\d{14}-\\d+|local-\\d+|spark-[0-9a-f]{32})(?:_([A-Za-z0-9]+))?");
    private static final int MAX_APP_ID_CHARS = 256;

    private final FieldChecks checks;
    private final String logName;

    private final BoundedMap<Long, Long> launchByTask = new BoundedMap<>(REMEMBERED);
    private final BoundedMap<Long, Integer> numTasksByStage = new BoundedMap<>(REMEMBERED);
    /**
     * The stage attempt {@link #checkIndex} looked up last and what the map answered (null: unknown), while
     * {@code lastCheckedValid}: until the map is next used elsewhere.
     */
    private boolean lastCheckedValid;
    private long lastCheckedStage;
    private Integer lastCheckedNumTasks;
    private final BoundedMap<Long, long[]> stageSpans = new BoundedMap<>(REMEMBERED);
    private final BoundedMap<Integer, long[]> jobSpans = new BoundedMap<>(REMEMBERED);
    private final BoundedMap<String, long[]> executorSpans = new BoundedMap<>(REMEMBERED);
    private final BoundedMap<Long, long[]> sqlSpans = new BoundedMap<>(REMEMBERED);
    private final long[] appSpan = {-1, -1};
    private boolean sawApplicationStart;
    private boolean sawApplicationWork;

    /**
     * @param logName the log's file name, or its rolling directory's name, for an application id the log lacks
     */
    Consistency(FieldChecks checks, String logName) {
        this.checks = checks;
        this.logName = logName;
    }

    /** The event as it may go on (rebuilt where a value became unknown). */
    SparkEvent apply(SparkEvent e, String launchProblem) throws InvalidEventException {
        if (e instanceof SparkEvent.TaskEnd t) {
            sawApplicationWork = true;
            TaskInfo info = taskEnd(t.stageId(), t.stageAttemptId(), t.taskInfo(), launchProblem);
            return info == t.taskInfo() ? e
                    : new SparkEvent.TaskEnd(t.stageId(), t.stageAttemptId(), t.taskType(), t.reason(), info, t.metrics(),
                    t.executorMetrics(), t.accumUpdates());
        }
        if (e instanceof SparkEvent.TaskStart t) {
            sawApplicationWork = true;
            TaskInfo info = taskStart(t.stageId(), t.stageAttemptId(), t.taskInfo(), launchProblem);
            return info == t.taskInfo() ? e : new SparkEvent.TaskStart(t.stageId(), t.stageAttemptId(), info);
        }
        if (e instanceof SparkEvent.StageSubmitted s) {
            sawApplicationWork = true;
            StageInfo info = stage(s.stage());
            return info == s.stage() ? e : new SparkEvent.StageSubmitted(info);
        }
        if (e instanceof SparkEvent.StageCompleted s) {
            sawApplicationWork = true;
            StageInfo info = stage(s.stage());
            return info == s.stage() ? e : new SparkEvent.StageCompleted(info);
        }
        if (e instanceof SparkEvent.JobStart j) {
            sawApplicationWork = true;
            return jobStart(j);
        }
        if (e instanceof SparkEvent.JobEnd j) {
            sawApplicationWork = true;
            long end = end(jobSpans.computeIfAbsent(j.jobId(), k -> new long[]{-1, -1}), j.completionTime(),
                    "Completion Time", "submission time");
            return end == j.completionTime() ? e : new SparkEvent.JobEnd(j.jobId(), end, j.succeeded(), j.failureReason());
        }
        if (e instanceof SparkEvent.ExecutorAdded x) {
            long start = start(executorSpans.computeIfAbsent(x.executorId(), k -> new long[]{-1, -1}), x.time(),
                    "Timestamp", "removal time");
            return start == x.time() ? e : new SparkEvent.ExecutorAdded(start, x.executorId(), x.host(), x.totalCores());
        }
        if (e instanceof SparkEvent.ExecutorRemoved x) {
            long end = end(executorSpans.computeIfAbsent(x.executorId(), k -> new long[]{-1, -1}), x.time(),
                    "Timestamp", "time it was added");
            return end == x.time() ? e : new SparkEvent.ExecutorRemoved(end, x.executorId(), x.reason());
        }
        if (e instanceof SparkEvent.SqlExecutionStart s) {
            sawApplicationWork = true;
            long start = start(sqlSpans.computeIfAbsent(s.executionId(), k -> new long[]{-1, -1}), s.time(),
                    "time", "end time");
            return start == s.time() ? e : new SparkEvent.SqlExecutionStart(s.executionId(), s.description(),
                    s.physicalPlanDescription(), s.plan(), start);
        }
        if (e instanceof SparkEvent.SqlExecutionEnd s) {
            sawApplicationWork = true;
            long end = end(sqlSpans.computeIfAbsent(s.executionId(), k -> new long[]{-1, -1}), s.time(), "time",
                    "start time");
            return end == s.time() ? e : new SparkEvent.SqlExecutionEnd(s.executionId(), end, s.errorMessage());
        }
        if (e instanceof SparkEvent.ApplicationStart a) {
            return applicationStart(a);
        }
        if (e instanceof SparkEvent.ApplicationEnd a) {
            sawApplicationWork = true;
            long end = end(appSpan, a.time(), "Timestamp", "application's start");
            return end == a.time() ? e : new SparkEvent.ApplicationEnd(end);
        }
        return e;
    }

    // ---- tasks ----

    private static long stageKey(int stageId, int attemptId) {
        return ((long) stageId << 32) | (attemptId & 0xffffffffL);
    }

    private void checkIndex(int stageId, int attemptId, TaskInfo info) throws InvalidEventException {
        long key = stageKey(stageId, attemptId);
        Integer numTasks;
        if (lastCheckedValid && key == lastCheckedStage) {
            // Task lines of one stage come in long runs: the answer of the last look-up, without boxing the key
            // again. The map orders by access; skipping a look-up of the key it accessed last changes no order.
            numTasks = lastCheckedNumTasks;
        } else {
            numTasks = numTasksByStage.get(key);
            lastCheckedValid = true;
            lastCheckedStage = key;
            lastCheckedNumTasks = numTasks;
        }
        if (numTasks != null && info.index() >= numTasks) {
            throw checks.skip("Index", info.index() + " is not below the " + numTasks + " tasks of stage " + stageId
                    + " attempt " + attemptId);
        }
    }

    private TaskInfo taskStart(int stageId, int attemptId, TaskInfo info, String launchProblem)
            throws InvalidEventException {
        checkIndex(stageId, attemptId, info);
        if (info.launchTime() > 0) {
            launchByTask.put(info.taskId(), info.launchTime());
        } else {
            checks.invalid("Launch Time", launchProblem == null ? "missing" : launchProblem, "");
        }
        return info;
    }

    private TaskInfo taskEnd(int stageId, int attemptId, TaskInfo info, String launchProblem)
            throws InvalidEventException {
        checkIndex(stageId, attemptId, info);
        long launch = info.launchTime();
        long finish = info.finishTime();
        long gettingResult = info.gettingResultTime();
        Long started = launchByTask.get(info.taskId());
        boolean zeroedFinish = false;
        if (finish > 0 && (launch <= 0 || launch > finish)) {
            String what = launch <= 0 ? (launchProblem == null ? "missing" : launchProblem)
                    : launch + " is after the finish time " + finish;
            if (started != null && started <= finish) {
                checks.invalid("Launch Time", what, ", the launch time of its task start (" + started + ") is used");
                launch = started;
            } else {
                checks.invalid("Launch Time", what, " and so is the finish time (a duration needs both)");
                launch = -1;
                finish = 0;
                zeroedFinish = true;
            }
        } else if (launch <= 0) {
            if (launchProblem != null) {
                checks.invalid("Launch Time", launchProblem, started != null
                        ? ", the launch time of its task start (" + started + ") is used" : "");
            }
            launch = started != null ? started : -1;
        }
        if (gettingResult > 0) {
            if (zeroedFinish) {
                gettingResult = 0; // part of the unknown run just warned about
            } else if (finish <= 0) {
                checks.invalid("Getting Result Time", gettingResult + " but the task has no finish time", "");
                gettingResult = 0;
            } else if (gettingResult > finish || (launch > 0 && gettingResult < launch)) {
                checks.invalid("Getting Result Time", gettingResult + " is outside the task's run (" + launch
                        + " to " + finish + ")", " (0, as for a task that fetched no indirect result)");
                gettingResult = 0;
            }
        }
        if (launch == info.launchTime() && finish == info.finishTime() && gettingResult == info.gettingResultTime()) {
            return info;
        }
        return new TaskInfo(info.taskId(), info.index(), info.attempt(), info.partitionId(), launch,
                info.executorId(), info.host(), info.locality(), info.speculative(), gettingResult, finish,
                info.failed(), info.killed());
    }

    // ---- stages and jobs ----

    /** Remembers the task count, fills in an unknown one (-1 from the decoder), and checks the stage's times. */
    private StageInfo stage(StageInfo info) {
        long key = stageKey(info.stageId(), info.attemptId());
        lastCheckedValid = false; // the map is read and perhaps changed below
        int numTasks = info.numTasks();
        Integer known = numTasksByStage.get(key);
        if (numTasks < 0) {
            numTasks = known == null ? 0 : known;
        } else if (known == null || numTasks > known) {
            numTasksByStage.put(key, numTasks);
        }
        long[] span = stageSpans.computeIfAbsent(key, k -> new long[]{-1, -1});
        long submission = info.submissionTime();
        long completion = info.completionTime();
        if (submission > 0 && completion > 0 && completion < submission) {
            checks.invalid("Completion Time", completion + " is before the submission time " + submission, "");
            completion = -1;
        }
        if (submission > 0) {
            submission = start(span, submission, "Submission Time", "completion time");
        }
        if (completion > 0) {
            completion = end(span, completion, "Completion Time", "submission time");
        }
        if (numTasks == info.numTasks() && submission == info.submissionTime()
                && completion == info.completionTime()) {
            return info;
        }
        return new StageInfo(info.stageId(), info.attemptId(), info.name(), numTasks, info.parentIds(),
                info.details(), submission, completion, info.failureReason(), info.accumulables());
    }

    private SparkEvent jobStart(SparkEvent.JobStart j) {
        long start = start(jobSpans.computeIfAbsent(j.jobId(), k -> new long[]{-1, -1}), j.submissionTime(),
                "Submission Time", "completion time");
        boolean changed = start != j.submissionTime();
        List<StageInfo> infos = new ArrayList<>(j.stageInfos().size());
        for (StageInfo info : j.stageInfos()) {
            StageInfo checked = stage(info);
            changed |= checked != info;
            infos.add(checked);
        }
        return changed ? new SparkEvent.JobStart(j.jobId(), start, j.stageIds(), infos, j.properties()) : j;
    }

    /**
     * A start time checked against a known end of the same thing; remembered when valid.
     *
     * @return the time, or -1 when it is unknown (already -1, or after the known end)
     */
    private long start(long[] span, long time, String field, String endName) {
        if (time <= 0) {
            return time;
        }
        if (span[1] > 0 && time > span[1]) {
            checks.invalid(field, time + " is after the " + endName + " " + span[1], "");
            return -1;
        }
        span[0] = time;
        return time;
    }

    /** An end time checked against a known start; remembered when valid; -1 when unknown. */
    private long end(long[] span, long time, String field, String startName) {
        if (time <= 0) {
            return time;
        }
        if (span[0] > 0 && time < span[0]) {
            checks.invalid(field, time + " is before the " + startName + " " + span[0], "");
            return -1;
        }
        span[1] = time;
        return time;
    }

    // ---- the application ----

    private SparkEvent applicationStart(SparkEvent.ApplicationStart a) {
        sawApplicationStart = true;
        long start = start(appSpan, a.time(), "Timestamp", "application's end");
        String appId = a.appId();
        String attemptId = a.attemptId();
        String problem = appId == null && checks.pending() != null ? checks.pending() : appIdProblem(appId);
        if (problem != null) {
            String[] derived = idFromLogName();
            checks.invalid("App ID", problem, ", the id \"" + derived[0] + "\" is "
                    + (derived[2].isEmpty() ? "taken from" : "made from")
                    + " the log's name " + FieldChecks.quoted(logName, 300) + (derived[2].isEmpty() ? "" : derived[2]));
            appId = derived[0];
            if (attemptId == null && derived[1] != null) {
                attemptId = derived[1];
            }
        }
        if (start == a.time() && appId.equals(a.appId()) && java.util.Objects.equals(attemptId, a.attemptId())) {
            return a;
        }
        return new SparkEvent.ApplicationStart(a.appName(), appId, attemptId, start, a.sparkUser());
    }

    private static String appIdProblem(String appId) {
        if (appId == null) {
            return "missing";
        }
        if (appId.isBlank()) {
            return "empty";
        }
        if (appId.length() > MAX_APP_ID_CHARS) {
            return "a text of " + appId.length() + " characters is not an application id";
        }
        for (int i = 0; i < appId.length(); i++) {
            if (appId.charAt(i) < 0x20 || appId.charAt(i) == 0x7f) {
                return FieldChecks.quoted(appId) + " holds control characters";
            }
        }
        return null;
    }

    /**
     * For a log that has Spark events but no ApplicationStart at all: one made from the log's name (start time
     * unknown), so the application is not lost; null when none is needed. Adds its warning to the checks.
     */
    SparkEvent.ApplicationStart missingApplicationStart() {
        if (sawApplicationStart || !sawApplicationWork) {
            return null;
        }
        sawApplicationStart = true;
        String[] derived = idFromLogName();
        checks.warn("no SparkListenerApplicationStart event; the application id \"" + derived[0] + "\" is "
                + (derived[2].isEmpty() ? "taken from" : "made from") + " the log's name"
                + derived[2] + ", its start time is unknown");
        return new SparkEvent.ApplicationStart("", derived[0], derived[1], -1, "");
    }

    /**
     * An application id from the log's name the way Spark names event logs ({@code <appId>[_<attempt>]} with an
     * optional codec and {@code .inprogress} suffix, or {@code eventlog_v2_<appId>[_<attempt>]} for a rolling log).
     *
     * @return {id, attempt or null, note}: note is empty for a Spark-shaped id, else says the id is not Spark's
     */
    String[] idFromLogName() {
        String stem = stem(logName);
        Matcher m = SPARK_APP_ID.matcher(stem);
        if (m.matches()) {
            return new String[]{m.group(1), m.group(2), ""};
        }
        String safe = stem.replaceAll("[^A-Za-z0-9._-]", "_");
        if (safe.length() > 100) {
            safe = safe.substring(0, 100);
        }
        if (safe.isEmpty()) {
            safe = "unnamed";
        }
        return new String[]{"file-" + safe, null, " (not a Spark application id: the name does not hold one)"};
    }

    /** The log's name without {@code eventlog_v2_}, {@code .inprogress}, {@code .compact} and codec suffixes. */
    static String stem(String name) {
        String s = name;
        if (s.startsWith(FileNames.ROLLING_DIR_PREFIX)) {
            s = s.substring(FileNames.ROLLING_DIR_PREFIX.length());
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (String suffix : new String[]{FileNames.IN_PROGRESS, FileNames.COMPACT}) {
                if (s.endsWith(suffix)) {
                    s = s.substring(0, s.length() - suffix.length());
                    changed = true;
                }
            }
            int dot = s.lastIndexOf('.');
            if (dot > 0 && Codec.shortNameOf(s.substring(dot + 1).toLowerCase(Locale.ROOT)) != null) {
                s = s.substring(0, dot);
                changed = true;
            }
        }
        return s;
    }
}
