package io.sparkscope.core.recorder;

import java.util.ArrayDeque;

/**
 * The two memory budgets of completed stage attempts: their task values (one row per successful task, kept until
 * completed stages together hold more than {@link RecorderOptions#retainedCompletedTasks()}, then the oldest keep
 * only their quantiles) and their kept task records (past {@link RecorderOptions#retainedDetailTasks()} the oldest
 * are thinned to {@link RecorderOptions#THINNED_TASKS_PER_STAGE}). Running stages are outside both: their values
 * are still counting.
 */
final class TaskValueBudgets {
    private final RecorderOptions options;
    private final double[] quantiles;
    /** Completed stages whose task values are still held, oldest first. */
    private final ArrayDeque<LiveStage> retainedCompleted = new ArrayDeque<>();
    private long retainedRows;
    /** Completed stages whose kept tasks count against the task-detail budget, oldest first. */
    private final ArrayDeque<LiveStage> detailCompleted = new ArrayDeque<>();
    private long detailRetained;

    TaskValueBudgets(RecorderOptions options, double[] quantiles) {
        this.options = options;
        this.quantiles = quantiles;
    }

    /**
     * A stage attempt completed for the first time: a closed one has already let its values go; one with tasks still
     * running keeps them under the budget. Either way the oldest past the budgets give theirs up.
     */
    void completed(LiveStage s) {
        if (!s.closed) {
            retainedCompleted.addLast(s);
            retainedRows += s.valueRows();
        }
        while (retainedRows > options.retainedCompletedTasks() && !retainedCompleted.isEmpty()) {
            LiveStage oldest = retainedCompleted.pollFirst();
            retainedRows -= oldest.valueRows();
            oldest.releaseValues(quantiles);
        }
        if (!s.countedInDetailBudget) {
            s.countedInDetailBudget = true;
            detailCompleted.addLast(s);
            detailRetained += s.keptTasks();
            while (detailRetained > options.retainedDetailTasks() && !detailCompleted.isEmpty()) {
                LiveStage oldest = detailCompleted.pollFirst();
                detailRetained -= oldest.keptTasks();
                // What remains (≤ THINNED_TASKS_PER_STAGE) is the stated per-stage floor, outside the budget.
                oldest.thinTasks(Math.min(options.tasksPerStage(), RecorderOptions.THINNED_TASKS_PER_STAGE));
            }
        }
    }

    /** A completed stage attempt closed (its last task ended): its values have served and leave the budget. */
    void closed(LiveStage s) {
        if (s.completedOnce && s.valueRows() > 0) {
            if (retainedCompleted.remove(s)) {
                retainedRows -= s.valueRows();
            }
            s.releaseValues(quantiles);
        }
    }

    /** A stage attempt left the window: its task values and kept tasks no longer count against the budgets. */
    void left(LiveStage s) {
        if (retainedCompleted.remove(s)) {
            retainedRows -= s.valueRows();
        }
        if (detailCompleted.remove(s)) {
            detailRetained -= s.keptTasks();
        }
    }
}
