package io.sparkscope.server.web.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.sparkscope.core.analysis.timeline.ExecutorLanes;
import io.sparkscope.core.analysis.timeline.TaskPhase;
import io.sparkscope.core.analysis.timeline.TaskTimeline;
import io.sparkscope.core.analysis.timeline.TimelineBar;
import io.sparkscope.core.analysis.timeline.TimelineLane;
import io.sparkscope.server.web.model.StageTimelines;
import io.sparkscope.store.query.StageTimelineData;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stage's task timeline: the same lanes, bars, phases and flags as the page. Times are epoch ms, phases ms;
 * {@code lane} indexes {@code lanes}; {@code phases} follow the placement rule (executor-side right before getting
 * result, scheduler delay first), each with its start.
 */
record TimelineJson(String appId, String attemptId, int stageId, int stageAttemptId, String name, String status,
                    long startTime, long endTime, long endedTasks, int shownTasks, boolean sampled, String taskDetail,
                    String sampledNote, boolean overflow, String overflowNote, int failedTasks, int killedTasks,
                    List<PhaseName> phaseNames,
                    List<Executor> executors, List<TimelineLane> lanes, List<Bar> bars) {

    private static final List<PhaseName> PHASES = Arrays.stream(TaskPhase.values())
            .map(p -> new PhaseName(p.key, p.label, p.driverSide ? "driver" : "executor")).toList();

    record PhaseName(String name, String label, String side) {
    }

    /** An executor's lanes, and whether its tasks overlap beyond its cores. */
    record Executor(@JsonUnwrapped ExecutorLanes lanes, boolean overflow) {
    }

    /** @param phases by phase name; absent when Spark reported no metrics for the task */
    record Bar(long taskId, int index, int attempt, String executorId, int lane, String status,
               @JsonInclude(JsonInclude.Include.NON_NULL) String endReason, boolean failed, boolean speculative,
               long launchTime, long finishTime, long durationMs, boolean metricsKnown,
               @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Phase> phases) {

        static Bar of(TimelineBar b) {
            Map<String, Phase> phases = null;
            if (b.metricsKnown()) {
                phases = new LinkedHashMap<>();
                for (TaskPhase p : TaskPhase.values()) {
                    phases.put(p.key, new Phase(b.phaseMs(p), b.phaseStart(p)));
                }
            }
            return new Bar(b.taskId(), b.index(), b.attempt(), b.executorId(), b.lane(), b.status(), b.endReason(),
                    b.failed(), b.speculative(),
                    b.launchTime(), b.finishTime(), b.durationMs(), b.metricsKnown(), phases);
        }
    }

    record Phase(long ms, long start) {
    }

    static TimelineJson of(StageTimelines.Loaded l) {
        StageTimelineData d = l.data();
        TaskTimeline t = l.timeline();
        return new TimelineJson(d.appId(), d.attemptId(), d.stageId(), d.stageAttemptId(), d.stageName(), d.status(),
                t.startTime(), t.endTime(), t.endedTasks(), t.bars().size(), t.sampled(), t.taskDetail().name(),
                t.sampled() ? StageTimelines.sampledSentence(t) : null, t.overflow(),
                t.overflow() ? StageTimelines.artifactSentence(t) : null, t.failedBars(), t.killedBars(), PHASES,
                t.executors().stream().map(e -> new Executor(e, e.overflow())).toList(), t.lanes(),
                t.bars().stream().map(Bar::of).toList());
    }
}
