package io.sparkscope.core.report;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.FixFirst;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
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
        StringBuilder b = new StringBuilder(2048);
        String attempt = s.attemptId() == null ? "" : " attempt " + s.attemptId();
        b.append("Sparkscope report: ").append(nonNull(s.appName())).append(" (").append(nonNull(s.appId()))
                .append(attempt).append(")").append(s.complete() ? "" : " [INCOMPLETE: no application end seen]")
                .append('\n');
        b.append("  Spark ").append(s.sparkVersion() == null ? "unknown" : s.sparkVersion())
                .append(", user ").append(nonNull(s.sparkUser()))
                .append(", started ").append(s.startTime() > 0 ? Instant.ofEpochMilli(s.startTime()) : "unknown")
                .append(", duration ").append(Units.duration(s.durationMs())).append('\n');
        b.append(FixFirst.of(findings == null ? List.of() : findings, s.durationMs()).toText("  "));

        long failedJobs = s.jobs().stream().filter(j -> j.status() == JobSummary.JobStatus.FAILED).count();
        long failedStages = s.stages().stream().filter(st -> st.status() == StageStatus.FAILED).count();
        long skippedStages = s.stages().stream().filter(st -> st.status() == StageStatus.SKIPPED).count();
        long killed = s.stages().stream().mapToLong(StageSummary::numKilledTasks).sum();
        long executors = s.executors().stream().filter(e -> !e.isDriver() || e.totalDuration() > 0).count();
        b.append("  Jobs ").append(s.jobs().size()).append(" (").append(failedJobs).append(" failed)")
                .append(", stages ").append(s.stages().size()).append(" (").append(failedStages).append(" failed, ")
                .append(skippedStages).append(" skipped)")
                .append(", tasks ").append(Units.count(s.totalTasks())).append(" (")
                .append(Units.count(s.failedTasks())).append(" failed, ").append(killed).append(" killed)")
                .append(", executors ").append(executors).append('\n');

        long run = sum(s, TaskMetric.EXECUTOR_RUN_TIME);
        long gc = sum(s, TaskMetric.JVM_GC_TIME);
        long taskTime = s.executors().stream().mapToLong(ExecutorSummary::totalDuration).sum();
        b.append("  Task time ").append(Units.duration(taskTime))
                .append(", GC ").append(run > 0 ? Units.percent((double) gc / run) : "-").append(" of run time")
                .append(", spill ").append(Units.bytes(sum(s, TaskMetric.MEMORY_BYTES_SPILLED))).append(" memory / ")
                .append(Units.bytes(sum(s, TaskMetric.DISK_BYTES_SPILLED))).append(" disk")
                .append(", shuffle ").append(Units.bytes(s.stages().stream()
                        .mapToLong(st -> st.totals().shuffleReadBytes()).sum())).append(" read / ")
                .append(Units.bytes(sum(s, TaskMetric.SHUFFLE_BYTES_WRITTEN))).append(" written")
                .append(", input ").append(Units.bytes(sum(s, TaskMetric.INPUT_BYTES))).append('\n');

        List<StageSummary> worst = s.stages().stream()
                .filter(st -> st.durationMs() > 0)
                .sorted(Comparator.comparingLong(StageSummary::durationMs).reversed())
                .limit(worstStages).toList();
        if (!worst.isEmpty()) {
            b.append("  Slowest stages:\n");
            for (StageSummary st : worst) {
                b.append(String.format(Locale.ROOT, "    stage %-7s %9s %6d tasks", st.key(),
                        Units.duration(st.durationMs()), st.numTasks()));
                if (st.numFailedTasks() > 0) {
                    b.append(" (").append(st.numFailedTasks()).append(" failed)");
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
                    b.append(", FAILED");
                }
                b.append("  ").append(shorten(st.name(), 60)).append('\n');
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

    private static long sum(AppSnapshot s, TaskMetric metric) {
        long n = 0;
        for (StageSummary st : s.stages()) {
            n += st.totals().get(metric);
        }
        return n;
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
