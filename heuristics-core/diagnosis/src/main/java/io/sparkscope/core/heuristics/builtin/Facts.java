package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.StageNames;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.JobSummary;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Facts about an application that heuristics derive again and again: a stage's wall time and task time, the
 * executors that ran tasks and their task slots, the wall time a saving of task time would give back (computed by {@link WallTime}), a stage's kind
 * (SQL or RDD). The built-in heuristics read them here, and a heuristic of your own can too, so that its numbers agree
 * with theirs (a saving estimated with {@link #appWallShare} is ranked fairly against theirs).
 *
 * <p>Every method reads only what it is given (the snapshot, a stage, the settings), is cheap enough to call per
 * stage, and copes with partial data (a running application, a log cut short): a time it cannot tell is 0.
 */
public final class Facts {
    private Facts() {
    }

    /** Stage wall time: completion − submission, else last task finish − first task launch, else 0. */
    public static long stageDurationMs(StageSummary s) {
        long d = s.durationMs();
        if (d > 0) {
            return d;
        }
        if (s.firstTaskLaunchedTime() > 0 && s.lastTaskFinishedTime() > 0) {
            return Math.max(0, s.lastTaskFinishedTime() - s.firstTaskLaunchedTime());
        }
        return 0;
    }

    /** "stage 3" or "stage 3 (attempt 1)", with the stage name as Spark gave it, when known. */
    public static String stageLabel(StageSummary s) {
        return label(s, s.name());
    }

    /**
     * "stage 3" or "stage 3 (attempt 1)", with the stage's name when known: its readable one, so a finding names a
     * stage as the pages do ({@link StageNames}).
     */
    public static String stageLabel(StageSummary s, AppSnapshot app) {
        return label(s, StageNames.readable(s, app));
    }

    private static String label(StageSummary s, String name) {
        String label = "stage " + s.stageId() + (s.attemptId() > 0 ? " (attempt " + s.attemptId() + ")" : "");
        return name == null || name.isBlank() ? label : label + " '" + name + "'";
    }

    /**
     * The stage's task distributions when they hold the median and the maximum and at least one task, else null
     * (a snapshot read from a log without task summaries, a stage with no finished task).
     */
    public static TaskDistributions summary(StageSummary s) {
        TaskDistributions d = s.taskSummary();
        if (d == null || d.count() == 0 || !d.has(0.5) || !d.has(1.0)) {
            return null;
        }
        return d;
    }

    /** The first {@code lines} lines of a failure text, at most {@code maxChars}; "" for null. */
    public static String firstLines(String text, int lines, int maxChars) {
        if (text == null) {
            return "";
        }
        String[] parts = text.strip().split("\\R", lines + 1);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(lines, parts.length); i++) {
            if (i > 0) {
                out.append('\n');
            }
            out.append(parts[i].stripTrailing());
        }
        return out.length() > maxChars ? out.substring(0, maxChars) + "…" : out.toString();
    }

    /** Executors that run tasks: the non-driver ones, or the driver in local mode. */
    public static List<ExecutorSummary> taskRunners(AppSnapshot app) {
        List<ExecutorSummary> out = new ArrayList<>();
        ExecutorSummary driver = null;
        for (ExecutorSummary e : app.executors()) {
            if (e.isDriver()) {
                driver = e;
            } else {
                out.add(e);
            }
        }
        if (out.isEmpty() && driver != null) {
            out.add(driver);
        }
        return out;
    }

    /** Cores of an executor; for a local-mode driver reporting 0, the N of local[N]; 0 when unknown. */
    public static int cores(ExecutorSummary e, SparkSettings settings) {
        if (e.totalCores() > 0) {
            return e.totalCores();
        }
        return e.isDriver() && settings.isLocal() ? settings.localCores().orElse(0) : 0;
    }

    /** End of the application for uptime purposes: its end, else its newest event. */
    public static long appEnd(AppSnapshot app) {
        return app.endTime() > 0 ? app.endTime() : app.lastEventTime();
    }

    /**
     * Quantile values of some metrics, as JSON-friendly lists under their Spark REST paths, for a finding's details
     * ({@code Finding.Builder.detail(key, value)}).
     */
    public static Map<String, Object> quantiles(TaskDistributions d, DistributionMetric... metrics) {
        Map<String, Object> out = new LinkedHashMap<>();
        List<Double> qs = new ArrayList<>();
        for (double q : d.quantiles()) {
            qs.add(q);
        }
        out.put("quantiles", qs);
        for (DistributionMetric m : metrics) {
            List<Long> vals = new ArrayList<>();
            for (double v : d.values(m)) {
                vals.add(Math.round(v));
            }
            out.put(m.path, vals);
        }
        return out;
    }

    /** Where tasks use memory: the driver's heap in local mode, an executor's otherwise. */
    public static String taskMemoryKey(SparkSettings s) {
        return s.isLocal() ? "spark.driver.memory" : "spark.executor.memory";
    }

    /** The size of that memory ({@link #taskMemoryKey}): the setting, or Spark's default. */
    public static long taskMemoryBytes(SparkSettings s) {
        return s.isLocal() ? s.driverMemoryBytes() : s.executorMemoryBytes();
    }

    /** A stage's kind: SQL (run by a SQL/DataFrame execution), RDD (jobs outside any SQL execution), or unknown. */
    public enum StageKind { SQL, RDD, UNKNOWN }

    /**
     * The kind of each stage attempt, keyed by {@link StageSummary#key()}, by its jobs: a job carrying
     * {@code spark.sql.execution.id} ran for a SQL execution. Built once per heuristic call (a map over jobs), so judging every stage stays linear.
     */
    public static Map<String, StageKind> stageKinds(AppSnapshot app) {
        StageKinds c = lastStageKinds;
        if (c != null && c.app().get() == app) {
            return c.kinds();
        }
        Map<String, StageKind> kinds = java.util.Collections.unmodifiableMap(buildStageKinds(app));
        lastStageKinds = new StageKinds(new java.lang.ref.WeakReference<>(app), kinds);
        return kinds;
    }

    /**
     * The stage kinds of the last application asked for: most heuristics of one diagnosis ask for them, of the same
     * snapshot, in turn. Held weakly, so it keeps nothing alive but one application's map.
     */
    private record StageKinds(java.lang.ref.WeakReference<AppSnapshot> app, Map<String, StageKind> kinds) {
    }

    private static volatile StageKinds lastStageKinds;

    private static Map<String, StageKind> buildStageKinds(AppSnapshot app) {
        Map<Integer, JobSummary> jobs = new HashMap<>();
        for (JobSummary j : app.jobs()) {
            jobs.put(j.jobId(), j);
        }
        Map<String, StageKind> out = new HashMap<>();
        for (StageSummary s : app.stages()) {
            StageKind kind = StageKind.UNKNOWN;
            for (int id : s.jobIds()) {
                JobSummary j = jobs.get(id);
                if (j == null) {
                    continue;
                }
                if (j.sqlExecutionId() >= 0) {
                    kind = StageKind.SQL;
                    break;
                }
                kind = StageKind.RDD;
            }
            out.put(s.key(), kind);
        }
        return out;
    }

    /** Σ task durations of a stage attempt (driver-stamped), else Σ executor run time. */
    public static long stageTaskMs(StageSummary s) {
        if (s.taskTimes() != null && s.taskTimes().durationMs() > 0) {
            return s.taskTimes().durationMs();
        }
        return s.totals() == null ? 0 : s.totals().get(TaskMetric.EXECUTOR_RUN_TIME);
    }

    /** Wall time a saving of {@code taskMs} of a stage's task time would give back: see {@link WallTime#ofStage}. */
    public static long stageWallShare(AppSnapshot app, StageSummary s, long taskMs) {
        return WallTime.ofStage(app, s, taskMs);
    }

    /** Wall time an application-wide saving of task time would give back: see {@link WallTime#ofApp}. */
    public static long appWallShare(AppSnapshot app, long taskMs) {
        return WallTime.ofApp(app, taskMs);
    }

    /** Task slots: cores of the executors that run tasks (unknown cores count as none). */
    public static int slots(AppSnapshot app, SparkSettings settings) {
        int n = 0;
        for (ExecutorSummary e : taskRunners(app)) {
            if (e.removeTime() <= 0 || e.completedTasks() + e.failedTasks() > 0) {
                n += cores(e, settings);
            }
        }
        return n;
    }

    /**
     * Task slots a saving may count on: {@link #slots}, except in local mode when the tasks' own times show fewer
     * real cores. The event log does not say the host's cores, and local[N] may ask for more threads than the machine
     * has: then N tasks side by side share fewer cores, and their CPU time over the stage's span (the cores they
     * really used at once) stays well under their run time over it (the tasks in flight). When some stage that kept
     * all N threads busy shows that (at least one task's worth of run time waiting for a core), the most cores any
     * stage's tasks used at once is
     * what a fix that adds tasks can have. Clusters reserve each executor's cores: there the slots stand.
     */
    public static int usableSlots(AppSnapshot app, SparkSettings settings) {
        int slots = slots(app, settings);
        if (!settings.isLocal() || slots <= 1) {
            return slots;
        }
        boolean contended = false;
        double mostCpu = 0;
        for (StageSummary s : app.stages()) {
            long span = stageDurationMs(s);
            if (span < MIN_CPU_SPAN_MS || s.totals() == null) {
                continue; // a short stage's times are mostly scheduling: they tell nothing of the cores
            }
            double cpuMs = s.totals().get(TaskMetric.EXECUTOR_CPU_TIME) / 1_000_000.0;
            double runMs = s.totals().get(TaskMetric.EXECUTOR_RUN_TIME);
            if (cpuMs <= 0 || runMs <= 0) {
                continue; // CPU time not recorded: nothing to compare
            }
            mostCpu = Math.max(mostCpu, cpuMs / span);
            // Evidence only from a stage that kept every thread busy: a stage with fewer tasks in flight that waits
            // for CPU waits on I/O or on other processes, which says nothing of the threads this run asked for.
            contended |= runMs / span >= slots - 0.5 && (runMs - cpuMs) / span >= 1;
        }
        if (!contended) {
            return slots;
        }
        return (int) Math.max(1, Math.min(slots, Math.round(mostCpu)));
    }

    /** Stages shorter than this (ms) are not read for the cores their tasks used at once. */
    static final long MIN_CPU_SPAN_MS = 1000;

    static String capitalize(String s) {
        return s == null || s.isEmpty() ? "" : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** A number of bytes or a count scaled and rounded for a Spark setting value. */
    static long atLeast1(double v) {
        return Math.max(1, Math.round(v));
    }
}
