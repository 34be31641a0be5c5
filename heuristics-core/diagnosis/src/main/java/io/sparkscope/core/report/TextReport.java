package io.sparkscope.core.report;

import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.FixFirst;
import io.sparkscope.core.heuristics.Platform;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.RunTotals;
import io.sparkscope.core.model.StageNames;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageSummary.StageStatus;
import io.sparkscope.core.model.TaskDistributions;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The short per-application report: what {@code analyze} prints and the listener logs in the driver at
 * application end. Presentation only; the numbers come from the snapshot and the judgements from the findings.
 */
public final class TextReport {
    private TextReport() {
    }

    /**
     * @param worstStages how many stages to list, slowest first
     * @param uiUrl       link to the application in the Sparkscope server, or null
     */
    public static String render(AppSnapshot s, List<Finding> findings, int worstStages, String uiUrl) {
        return render(s, findings, worstStages, uiUrl, Prices.NONE);
    }

    /** @param prices the operator's prices, for the cost line ({@link Prices#NONE}: resources only) */
    public static String render(AppSnapshot s, List<Finding> findings, int worstStages, String uiUrl, Prices prices) {
        StringBuilder b = new StringBuilder(2048);
        String attempt = s.attemptId() == null ? "" : " attempt " + s.attemptId();
        b.append("Sparkscope report: ").append(nonNull(s.appName())).append(" (").append(nonNull(s.appId()))
                .append(attempt).append(")").append(s.complete() ? "" : " [INCOMPLETE: no application end seen]")
                .append('\n');
        b.append("  Spark ").append(s.sparkVersion() == null ? "unknown" : s.sparkVersion())
                .append(", user ").append(nonNull(s.sparkUser()))
                .append(", started ").append(s.startTime() > 0 ? Instant.ofEpochMilli(s.startTime()) : "unknown")
                .append(", duration ").append(duration(s)).append('\n');
        // where the memory and core advice below takes its defaults from
        b.append("  Platform: ").append(Platform.of(s).describe()).append('\n');
        b.append(FixFirst.of(findings == null ? List.of() : findings, s.durationMs()).toText("  "));

        // Whole-run figures: a long-running application's snapshot lists only its recent jobs and stages.
        RunTotals whole = s.totals();
        // Removed executors past the recorder's window are no longer listed; the totals count them and their task time.
        long executors = s.executors().stream().filter(e -> !e.isDriver() || e.totalDuration() > 0).count()
                + whole.executorsNotListed();
        b.append("  Jobs ").append(whole.jobs()).append(" (").append(whole.failedJobs()).append(" failed)")
                .append(", stages ").append(whole.stages()).append(" (").append(whole.failedStages())
                .append(" failed, ").append(whole.skippedStages()).append(" skipped)")
                .append(", tasks ").append(taskCounts(s))
                .append(", executors ").append(executors).append('\n');

        long run = sum(s, TaskMetric.EXECUTOR_RUN_TIME);
        long gc = sum(s, TaskMetric.JVM_GC_TIME);
        long taskTime = s.executors().stream().mapToLong(ExecutorSummary::totalDuration).sum()
                + whole.executorTaskMsNotListed();
        b.append("  Task time ").append(Units.duration(taskTime))
                .append(", GC ").append(run > 0 ? Units.percent((double) gc / run) : "-").append(" of run time")
                .append(", spill ").append(Units.bytes(sum(s, TaskMetric.MEMORY_BYTES_SPILLED))).append(" memory / ")
                .append(Units.bytes(sum(s, TaskMetric.DISK_BYTES_SPILLED))).append(" disk")
                .append(", shuffle ").append(Units.bytes(whole.metrics().shuffleReadBytes())).append(" read / ")
                .append(Units.bytes(sum(s, TaskMetric.SHUFFLE_BYTES_WRITTEN))).append(" written")
                .append(", input ").append(Units.bytes(sum(s, TaskMetric.INPUT_BYTES))).append('\n');

        b.append(EfficiencyText.lines(Efficiency.of(s), prices, "  "));

        List<StageSummary> worst = s.stages().stream()
                .filter(st -> st.durationMs() > 0)
                .sorted(Comparator.comparingLong(StageSummary::durationMs).reversed())
                .limit(worstStages).toList();
        if (!whole.listsEverything()) {
            groups(b, "Job groups", whole.jobGroups(), "jobs");
            groups(b, "SQL queries", whole.sqlDescriptions(), "runs");
        }
        if (!worst.isEmpty()) {
            b.append(whole.stagesNotListed() > 0 ? "  Slowest of the " + s.stages().size() + " most recent stages:\n"
                    : "  Slowest stages:\n");
            for (StageSummary st : worst) {
                b.append(String.format(Locale.ROOT, "    stage %-7s %9s %12s", st.key(),
                        Units.duration(st.durationMs()), Units.count(st.numTasks(), "task")));
                String attempts = attemptNotes(st.numFailedAttempts(), st.numResubmittedTasks(),
                        st.numSpeculativeTasks());
                if (!attempts.isEmpty()) {
                    b.append(" (").append(attempts).append(')');
                }
                TaskDistributions d = st.taskSummary();
                if (d != null) {
                    b.append(", task run time median ")
                            .append(Units.duration((long) d.median(DistributionMetric.EXECUTOR_RUN_TIME)))
                            .append(" p95 ").append(Units.duration((long) d.at(DistributionMetric.EXECUTOR_RUN_TIME, 0.95)))
                            .append(" max ").append(Units.duration((long) d.max(DistributionMetric.EXECUTOR_RUN_TIME)));
                }
                long spill = st.totals().get(TaskMetric.MEMORY_BYTES_SPILLED);
                if (spill > 0) {
                    b.append(", spill ").append(Units.bytes(spill));
                }
                if (st.status() == StageStatus.FAILED) {
                    b.append(", FAILED with ").append(partitionsCompleted(st));
                }
                b.append("  ").append(shorten(StageNames.readable(st, s), 60)).append('\n');
            }
        }
        if (findings == null || findings.isEmpty()) {
            b.append("  Findings: none\n");
        } else {
            long high = findings.stream().filter(f -> f.severity() == Severity.HIGH).count();
            b.append("  Findings: ").append(findings.size()).append(" (").append(high).append(" high)\n");
            for (Finding f : findings) {
                b.append("    [").append(f.severity()).append("] ").append(f.heuristic()).append(": ")
                        .append(f.title()).append('\n');
                b.append("        ").append(f.message()).append('\n');
                if (f.recommendation() != null && !f.recommendation().isBlank()) {
                    b.append("        Try: ").append(f.recommendation()).append('\n');
                }
            }
        }
        if (uiUrl != null && !uiUrl.isBlank()) {
            b.append("  Details: ").append(uiUrl).append('\n');
        }
        return b.toString();
    }

    /** The wall time, or why it is not known (no start, or an end stamped before the start). */
    private static String duration(AppSnapshot s) {
        if (s.startTime() <= 0) {
            return "unknown (no start time)";
        }
        long end = s.endTime() > 0 ? s.endTime() : s.lastEventTime();
        if (end > 0 && end < s.startTime()) {
            return "unknown (the end is stamped before the start)";
        }
        return Units.duration(s.durationMs());
    }

    /**
     * Task attempts (each task id once) and how they ended. Spark also reports a finished task a second time, as
     * "Resubmitted", when the executor holding its output is lost; those repeats are named apart instead of being
     * counted as more tasks or as failures of running code.
     */
    private static String taskCounts(AppSnapshot s) {
        RunTotals run = s.totals();
        long failed = run.failedAttempts();
        long killed = run.killedTasks();
        long resubmitted = run.resubmittedTasks();
        long speculative = run.speculativeTasks();
        long duplicates = run.duplicateTaskEnds();
        long unknownTimes = run.tasksWithUnknownTimes();
        StringBuilder b = new StringBuilder();
        b.append(Units.count(s.totalTasks())).append(" (").append(Units.count(failed)).append(" failed, ")
                .append(Units.count(killed)).append(" killed");
        if (speculative > 0) {
            b.append(", ").append(Units.count(speculative)).append(" speculative copies");
        }
        if (resubmitted > 0) {
            b.append("; ").append(Units.count(resubmitted))
                    .append(" finished ones resubmitted after their output was lost with an executor");
        }
        if (duplicates > 0) {
            b.append("; ").append(Units.count(duplicates)).append(" task ends repeated in the events");
        }
        if (unknownTimes > 0) {
            b.append("; ").append(Units.count(unknownTimes)).append(" with unknown launch or finish time, left out of")
                    .append(" task time");
        }
        return b.append(')').toString();
    }

    private static String attemptNotes(long failed, long resubmitted, long speculative) {
        StringBuilder b = new StringBuilder();
        if (failed > 0) {
            b.append(failed).append(" failed");
        }
        if (resubmitted > 0) {
            b.append(b.isEmpty() ? "" : ", ").append(resubmitted).append(" resubmitted");
        }
        if (speculative > 0) {
            b.append(b.isEmpty() ? "" : ", ").append(speculative).append(" speculative");
        }
        return b.toString();
    }

    /**
     * "200 of 200 partitions completed": distinct partition indices with a successful attempt, never more than the
     * stage's partitions (indices a damaged log gives beyond them are said so instead).
     */
    private static String partitionsCompleted(StageSummary st) {
        int done = st.numCompletedIndices();
        int all = st.numTasks();
        if (done <= all) {
            return done + " of " + all + " partitions completed";
        }
        return done + " distinct partition indices completed (the stage has " + all + " partitions)";
    }

    private static long sum(AppSnapshot s, TaskMetric metric) {
        return s.totals().metrics().get(metric);
    }

    /** The five groups that took longest, for a run whose older jobs are only in its totals. */
    private static void groups(StringBuilder b, String label, List<RunTotals.GroupTotals> groups, String unit) {
        if (groups.isEmpty()) {
            return;
        }
        b.append("  ").append(label).append(" (").append(groups.size()).append("), longest first:");
        groups.stream().sorted(Comparator.comparingLong(RunTotals.GroupTotals::durationMs).reversed()).limit(5)
                .forEach(g -> b.append("\n    ").append(shorten(g.key(), 60)).append(": ").append(g.count())
                        .append(' ').append(unit).append(g.failed() > 0 ? " (" + g.failed() + " failed)" : "")
                        .append(", ").append(Units.duration(g.durationMs())).append(" in all, longest ")
                        .append(Units.duration(g.maxDurationMs())));
        b.append('\n');
    }

    private static String nonNull(String s) {
        return s == null ? "?" : s;
    }

    private static String shorten(String s, int max) {
        if (s == null) {
            return "";
        }
        String oneLine = s.replace('\n', ' ');
        return oneLine.length() <= max ? oneLine : oneLine.substring(0, max - 1) + "…";
    }
}
