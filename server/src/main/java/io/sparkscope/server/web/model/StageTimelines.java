package io.sparkscope.server.web.model;

import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.core.analysis.timeline.ExecutorLanes;
import io.sparkscope.core.analysis.timeline.ExecutorSlots;
import io.sparkscope.core.analysis.timeline.TaskTimeline;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.StageSummary.TaskDetail;
import io.sparkscope.store.query.StageTimelineData;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A stored stage attempt laid out as a task timeline ({@link TaskTimeline}), with the sentences the timeline page
 * and its JSON route both show about it.
 */
public final class StageTimelines {
    private StageTimelines() {
    }

    /** The stored stage and its layout. */
    public record Loaded(StageTimelineData data, TaskTimeline timeline) {
        public static Loaded of(StageTimelineData data) {
            return new Loaded(data, layout(data));
        }
    }

    public static TaskTimeline layout(StageTimelineData d) {
        SparkSettings conf = new SparkSettings(new AppConfig(d.sparkConf(), Map.of(), Map.of(), Map.of()));
        List<ExecutorSlots> executors = new ArrayList<>(d.executors().size());
        for (StageTimelineData.ExecutorRow e : d.executors()) {
            executors.add(new ExecutorSlots(e.executorId(), e.host(),
                    ExecutorSlots.slots(e.executorId(), e.totalCores(), conf), e.addTime(), e.removeTime()));
        }
        return TaskTimeline.build(d.stageId(), d.stageAttemptId(), d.tasks(), d.endedTasks(), detail(d), executors);
    }

    /**
     * As stored; for a stage written before the task-detail column existed, the rule of
     * {@link io.sparkscope.core.model.StageSummary} applies.
     */
    static TaskDetail detail(StageTimelineData d) {
        if (d.taskDetail() != null) {
            return TaskDetail.valueOf(d.taskDetail());
        }
        return d.tasks().size() < d.endedTasks() ? TaskDetail.SLOWEST : TaskDetail.ALL;
    }

    /**
     * The one sentence saying that the lanes stay the executors' task slots although the driver's timestamps overlap
     * more tasks than that, why they do, and what the executor-side times say: whether the timestamps explain the
     * overlap, or the executor really ran more tasks than its recorded cores.
     */
    public static String artifactSentence(TaskTimeline t) {
        List<String> real = new ArrayList<>();
        int crowded = 0;
        for (ExecutorLanes e : t.executors()) {
            crowded += e.crowded();
            if (e.overflow() && e.executorSideMaxConcurrent() > e.slots()) {
                real.add(e.executorId());
            }
        }
        String s = "Lanes are the executors' task slots, none added: " + Fmt.count(crowded, "task")
                + (crowded == 1 ? " was" : " were") + " launched while every slot of its executor was still busy on"
                + " the driver's clock and " + (crowded == 1 ? "is" : "are") + " drawn over the slot that freed first,"
                + " because Spark stamps a task's launch when the driver offers it and its finish when the driver has"
                + " handled its result, so the driver-side waits of consecutive tasks overlap";
        if (real.isEmpty()) {
            return s + " — counting executor-side time only, no executor ran more tasks than its cores.";
        }
        return s + " — but on " + (real.size() == 1 ? "executor " : "executors ") + String.join(", ", clipList(real))
                + " even the executor-side times overlap beyond the cores, which the timestamps do not explain"
                + " (the recorded core count may not be what ran).";
    }

    private static List<String> clipList(List<String> ids) {
        return ids.size() <= 5 ? ids : List.of(String.join(", ", ids.subList(0, 5)), "… (" + ids.size() + " in all)");
    }

    /** How many shown attempts failed or were killed, and how they are drawn. */
    public static String outcomeSentence(TaskTimeline t) {
        List<String> parts = new ArrayList<>();
        if (t.failedBars() > 0) {
            parts.add(Fmt.count(t.failedBars(), "failed task attempt") + " (hatched red: their work is lost and"
                    + " the partition ran again)");
        }
        if (t.killedBars() > 0) {
            parts.add(Fmt.count(t.killedBars(), "killed attempt") + " (outlined dashed: speculative copies that lost"
                    + " the race, or tasks of a cancelled stage)");
        }
        return "This stage shows " + String.join(" and ", parts) + ".";
    }

    public static String sampledSentence(TaskTimeline t) {
        String shown = "Showing " + Fmt.count(t.bars().size()) + " of " + Fmt.count(t.endedTasks()) + " tasks: ";
        if (t.taskDetail() == TaskDetail.SAMPLED) {
            return shown + "the slowest and a uniform sample (the recorder keeps every task up to its per-stage cap,"
                    + " spark.sparkscope.tasks.perStage, and past it half slowest, half sampled).";
        }
        if (t.taskDetail() == TaskDetail.SLOWEST) {
            return shown + "only the slowest were kept (the application's task-detail budget,"
                    + " spark.sparkscope.tasks.retained, was spent, or an older Sparkscope recorded it).";
        }
        return shown + "the others ended without a detailed record (failed tasks beyond the recorder's limit, or"
                + " a stage still running: its tasks are written when it completes).";
    }
}
