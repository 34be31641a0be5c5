package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.DetailLabel;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.text.Units;

import java.util.List;

/**
 * What a stage with fewer tasks than cores cost: its wall time against the time its task time would take spread over
 * every core. The difference is the wall time more partitions could give back; the idle cores are its cause.
 *
 * @param stageMs  the stage's wall time
 * @param taskMs   Σ its task durations
 * @param othersTaskMs task time other stages ran on the application's cores during the stage
 * @param slots    the application's task slots
 * @param spreadMs (task time + others' task time) ÷ slots: the stage's wall time had every core worked
 * @param savingMs stage wall time − spreadMs, at least 0
 */
record IdleSlots(StageSummary stage, long stageMs, long taskMs, long othersTaskMs, int slots, long spreadMs,
                 long savingMs) {
    /** The thresholds {@link #grade} reads, the same for every heuristic judging idle slots. */
    static final List<Threshold> THRESHOLDS = List.of(
            new Threshold("share.low", "0.05",
                    "saving ÷ application time at or above which it is LOW"),
            new Threshold("share.high", "0.2",
                    "saving ÷ application time at or above which it is HIGH (with highSavingMs)"),
            new Threshold("minSavingMs", "1000",
                    "stages whose spread-out saving is shorter (ms) are not judged"),
            new Threshold("highSavingMs", "5000",
                    "a saving shorter than this (ms) is at most LOW"));
    static final DetailLabel SLOTS_LABEL = new DetailLabel("Cores (task slots)", DetailLabel.Unit.COUNT);
    static final DetailLabel SAVING_LABEL = new DetailLabel("Wall time with every core working, saved",
            DetailLabel.Unit.DURATION_MS);

    /**
     * @param app the application, whose other stages' tasks running at the same time used some of the cores this
     *            stage left free: those cores were not idle, and spreading this stage would not have had them
     */
    static IdleSlots of(AppSnapshot app, StageSummary s, int slots) {
        long stageMs = Facts.stageDurationMs(s);
        long taskMs = Facts.stageTaskMs(s);
        long others = othersTaskMs(app, s, stageMs);
        long spread = Math.round((double) (taskMs + others) / Math.max(1, slots));
        return new IdleSlots(s, stageMs, taskMs, others, slots, spread, Math.max(0, stageMs - spread));
    }

    /** Task time of other stages' (kept) tasks inside this stage's window. */
    private static long othersTaskMs(AppSnapshot app, StageSummary s, long stageMs) {
        long from = s.submissionTime() > 0 ? s.submissionTime() : s.firstTaskLaunchedTime();
        if (from <= 0 || stageMs <= 0) {
            return 0;
        }
        long to = from + stageMs;
        long sum = 0;
        for (StageSummary o : app.stages()) {
            if (o == s || o.firstTaskLaunchedTime() <= 0 || o.firstTaskLaunchedTime() >= to
                    || (o.lastTaskFinishedTime() > 0 && o.lastTaskFinishedTime() <= from)) {
                continue;
            }
            for (TaskRecord t : o.keptTasks()) {
                if (t.launchTime() > 0 && t.finishTime() > t.launchTime()) {
                    sum += Math.max(0, Math.min(to, t.finishTime()) - Math.max(from, t.launchTime()));
                }
            }
        }
        return sum;
    }

    /**
     * "" when the slots counted are all the application asked for; else a note that local mode asked for more threads
     * than its tasks could use at once ({@link Facts#usableSlots}), for a finding's basis.
     */
    static String coresNote(int asked, int usable) {
        return usable >= asked ? "" : "; " + usable + " cores counted, not the " + asked + " of the master: tasks"
                + " side by side never used more CPU than " + usable + " cores give";
    }

    /** Idle core time during the stage: its wall time on every slot less its own and other stages' task time. */
    long idleCoreMs() {
        return Math.max(0, stageMs * slots - taskMs - othersTaskMs);
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

    /** "its 34 s of task time (with 2 s of other stages' tasks at the same time) over all 4 cores would take 9 s". */
    String spread() {
        return "its " + Units.duration(taskMs) + " of task time" + (othersTaskMs > 0 ? " (with "
                + Units.duration(othersTaskMs) + " of other stages' tasks at the same time)" : "") + " over all "
                + slots + " cores would take " + Units.duration(spreadMs);
    }

    /** The basis of the impact, naming the numbers. */
    String basis() {
        return "stage " + stage.stageId() + " ran " + stage.numTasks() + (stage.numTasks() == 1 ? " task" : " tasks")
                + " on " + slots + " cores for " + Units.duration(stageMs) + "; " + spread();
    }
}
