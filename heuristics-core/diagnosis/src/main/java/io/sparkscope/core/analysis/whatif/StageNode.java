package io.sparkscope.core.analysis.whatif;

import java.util.List;

/**
 * One stage attempt as the simulation sees it.
 *
 * @param stageId   Spark's stage id
 * @param attemptId the attempt
 * @param jobId     the first job the stage ran for; with the stage id it is Spark's FIFO priority
 * @param parents   indexes (into the same phase's node list) of the stage attempts that must end first
 * @param tasks     the attempt's task durations, in simulation order
 */
record StageNode(int stageId, int attemptId, int jobId, List<Integer> parents, StageTasks tasks) {
    StageNode {
        parents = List.copyOf(parents);
    }
}
