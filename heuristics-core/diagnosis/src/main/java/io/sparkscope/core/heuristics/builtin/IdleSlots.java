package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.text.Units;

/**
 * What a stage with fewer tasks than cores cost: its wall time against the time its task time would take spread over
 * every core. The difference is the wall time more partitions could give back; the idle cores are its cause.
 *
 * @param stageMs  the stage's wall time
 * @param taskMs   Σ its task durations
 * @param slots    the application's task slots
 * @param spreadMs task time ÷ slots: the stage's wall time had every core worked
 * @param savingMs stage wall time − spreadMs, at least 0
 */
record IdleSlots(StageSummary stage, long stageMs, long taskMs, int slots, long spreadMs, long savingMs) {

    static IdleSlots of(StageSummary s, int slots) {
        long stageMs = Facts.stageDurationMs(s);
        long taskMs = Facts.stageTaskMs(s);
        long spread = Math.round((double) taskMs / Math.max(1, slots));
        return new IdleSlots(s, stageMs, taskMs, slots, spread, Math.max(0, stageMs - spread));
    }

    /** Idle core time during the stage: its wall time on every slot less the task time. */
    long idleCoreMs() {
        return Math.max(0, stageMs * slots - taskMs);
    }

    /**
     * The severity of the saving for {@code id}'s thresholds ({@code share.low}/{@code share.high} of the application
     * time, {@code minSavingMs}, {@code highSavingMs}); NONE below them.
     */
    Severity grade(AppSnapshot app, HeuristicConfig cfg, String id) {
        if (savingMs < cfg.count(id + ".minSavingMs")) {
            return Severity.NONE;
        }
        long appMs = app.durationMs() > 0 ? app.durationMs() : stageMs;
        double share = (double) savingMs / Math.max(1, appMs);
        Severity s = cfg.levels(id + ".share").grade(share);
        if (s == Severity.HIGH && savingMs < cfg.count(id + ".highSavingMs")) {
            return Severity.LOW; // a large share of a short run: honest about the seconds it saves
        }
        return s;
    }

    /** The basis of the impact, naming the numbers. */
    String basis() {
        return "stage " + stage.stageId() + " ran " + stage.numTasks() + (stage.numTasks() == 1 ? " task" : " tasks")
                + " on " + slots + " cores for " + Units.duration(stageMs) + "; its " + Units.duration(taskMs)
                + " of task time over all " + slots + " cores would take " + Units.duration(spreadMs);
    }
}
