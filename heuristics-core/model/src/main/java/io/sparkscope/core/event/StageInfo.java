package io.sparkscope.core.event;

import java.util.List;

/**
 * Spark's {@code StageInfo} as carried by stage-submitted, stage-completed and job-start events.
 *
 * @param submissionTime  epoch ms, or -1 when not submitted (yet)
 * @param completionTime  epoch ms, or -1
 * @param failureReason   null unless the attempt failed
 * @param accumulables    named accumulators of the stage (SQL metrics among them), possibly empty
 */
public record StageInfo(
        int stageId,
        int attemptId,
        String name,
        int numTasks,
        List<Integer> parentIds,
        String details,
        long submissionTime,
        long completionTime,
        String failureReason,
        List<Accumulable> accumulables) {

    public StageInfo {
        parentIds = parentIds == null ? List.of() : List.copyOf(parentIds);
        accumulables = accumulables == null ? List.of() : List.copyOf(accumulables);
    }

    /** One accumulator value; {@code value} as Spark logged it (numbers and strings both appear). */
    public record Accumulable(long id, String name, String value) {
    }
}
