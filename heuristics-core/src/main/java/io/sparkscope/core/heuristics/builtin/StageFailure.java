package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Each failed or killed stage attempt is HIGH, with the first lines of its failure reason (thesis §4.2.1: "a log
 * snippet indicating the possible reason"). The advice follows the reason's kind.
 */
public final class StageFailure implements Heuristic {
    public static final String ID = "StageFailure";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        List<Finding> out = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            if (s.status() != StageSummary.StageStatus.FAILED) {
                continue;
            }
            String reason = Facts.firstLines(s.failureReason(), 5, 1000);
            String firstLine = Facts.firstLines(s.failureReason(), 1, 300);
            out.add(Finding.builder(ID, Severity.HIGH)
                    .location(s.key())
                    .title("Stage " + s.stageId() + " failed")
                    .message(capitalize(Facts.stageLabel(s)) + " failed with " + partitionsCompleted(s)
                            + " (" + s.numCompleteTasks() + " successful and " + s.numFailedAttempts()
                            + " failed task attempts" + (s.numResubmittedTasks() > 0 ? ", " + s.numResubmittedTasks()
                            + " finished ones resubmitted after their output was lost" : "") + ")"
                            + (firstLine.isEmpty() ? "." : ": " + firstLine))
                    .recommendation(adviceFor(s.failureReason()))
                    .stage(s.key())
                    .detail("stageId", s.stageId())
                    .detail("attemptId", s.attemptId())
                    .detail("numTasks", s.numTasks())
                    .detail("failedTasks", s.numFailedTasks())
                    .detail("killedTasks", s.numKilledTasks())
                    .detail("failureReason", reason)
                    .build());
        }
        return out;
    }

    /** Never "N of M" with N above M: indices beyond the stage's partitions (a damaged log) are said so. */
    private static String partitionsCompleted(StageSummary s) {
        return s.numCompletedIndices() <= s.numTasks()
                ? s.numCompletedIndices() + " of " + s.numTasks() + " partitions completed"
                : s.numCompletedIndices() + " distinct partition indices completed (" + s.numTasks() + " partitions)";
    }

    private static String adviceFor(String reason) {
        String r = reason == null ? "" : reason.toLowerCase(Locale.ROOT);
        if (r.contains("fetchfailed") || r.contains("metadatafetchfailed") || r.contains("executorlost")
                || r.contains("executor lost")) {
            return "Shuffle data was lost, usually because an executor died (often killed for exceeding its memory"
                    + " limit). Give executors headroom (spark.executor.memoryOverhead, spark.executor.memory) and"
                    + " keep shuffle files when executors go: spark.shuffle.service.enabled=true or"
                    + " spark.decommission.enabled=true.";
        }
        if (r.contains("outofmemory") || r.contains("memory limits") || r.contains("exit code 137")
                || r.contains("exit code: 137")) {
            return "Tasks ran out of memory. Give each task more memory (raise spark.executor.memory or"
                    + " spark.executor.memoryOverhead, or lower spark.executor.cores) or make partitions smaller"
                    + " (raise spark.sql.shuffle.partitions).";
        }
        if (r.contains("cancel") || r.contains("killed")) {
            return "The stage was cancelled, by the user or because its job failed elsewhere; act on it only if that"
                    + " was unexpected.";
        }
        return "Read the reason and the failed tasks' errors (TaskFailure): the same exception on many tasks is a bug"
                + " or bad input, not bad luck. Fix it rather than raising spark.task.maxFailures.";
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
