package io.sparkscope.core.analysis.timeline;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageSummary.TaskDetail;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.model.TaskTimes;
import io.sparkscope.core.event.TaskMetric;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The task timeline of one stage attempt: one lane per task slot of each executor, the kept tasks packed into
 * them by launch time, each split into its {@link TaskPhase}s. Pure layout: no pixels, no text.
 *
 * <p>Packing: an executor has one lane per task slot ({@code cores / spark.task.cpus}, the N of {@code local[N]}),
 * never more. Its tasks go in launch order, each on its lowest lane that is free at its launch (a lane whose last
 * task finished at or before it). When every slot is still busy by the driver's timestamps, the task goes on the
 * lane that frees first and its bar overlaps the one before: it is counted in {@link ExecutorLanes#crowded}, and no
 * lane is invented for it. The executor never ran more tasks than it had slots; the driver's timestamps make it look
 * so (launch is stamped when the driver offers a task, finish when it has processed the result, so one task's
 * driver-side tail overlaps the next one's start). {@link ExecutorLanes#maxConcurrent} still counts that apparent
 * overlap and {@link ExecutorLanes#executorSideMaxConcurrent} the overlap of the executor-side phases alone, which
 * shows whether the timestamps explain it. An executor whose cores are unknown gets as many lanes as its tasks
 * overlap at most (the greedy rule's count): there is no slot count to keep to.
 *
 * <p>Idle slots (cores no shown task used) are drawn at most {@link #MAX_IDLE_LANES_PER_EXECUTOR} per executor and
 * {@link #MAX_IDLE_LANES} in all; the rest are counted in {@link ExecutorLanes#idleSlotsNotDrawn}. A real executor
 * shows all its idle cores; a damaged log claiming 200 000 000 of them costs nothing.
 *
 * @param startTime   earliest launch of a shown task (epoch ms), 0 without tasks
 * @param endTime     latest finish of a shown task
 * @param endedTasks  tasks of the stage attempt that ended (what the shown ones were chosen from)
 * @param taskDetail  how the recorder chose the tasks it kept (all, slowest + uniform sample, slowest only)
 */
public record TaskTimeline(
        int stageId,
        int attemptId,
        long startTime,
        long endTime,
        List<ExecutorLanes> executors,
        List<TimelineLane> lanes,
        List<TimelineBar> bars,
        long endedTasks,
        TaskDetail taskDetail) {

    /** Idle lanes drawn for one executor at most (more cores than any real executor has). */
    public static final int MAX_IDLE_LANES_PER_EXECUTOR = 1024;
    /** Idle lanes drawn for all executors together at most. */
    public static final int MAX_IDLE_LANES = 4096;

    public TaskTimeline {
        executors = List.copyOf(executors);
        lanes = List.copyOf(lanes);
        bars = List.copyOf(bars);
    }

    /** Whether only some of the ended tasks are shown. */
    public boolean sampled() {
        return bars.size() < endedTasks;
    }

    /** Idle slots of all executors that got no lane ({@link ExecutorLanes#idleSlotsNotDrawn}). */
    public long idleSlotsNotDrawn() {
        long n = 0;
        for (ExecutorLanes e : executors) {
            n += e.idleSlotsNotDrawn();
        }
        return n;
    }

    /** Whether some executor shows more concurrent tasks than it has slots. */
    public boolean overflow() {
        return executors.stream().anyMatch(ExecutorLanes::overflow);
    }

    /** Shown task attempts that failed ({@link TimelineBar#failed}). */
    public int failedBars() {
        return (int) bars.stream().filter(TimelineBar::failed).count();
    }

    /** Shown task attempts that were killed ({@link TimelineBar#killed}). */
    public int killedBars() {
        return (int) bars.stream().filter(TimelineBar::killed).count();
    }

    /** Σ of each phase over the shown bars, ms, in {@link TaskPhase} order. */
    public long[] phaseTotals() {
        long[] out = new long[TaskPhase.values().length];
        for (TimelineBar b : bars) {
            for (TaskPhase p : TaskPhase.values()) {
                out[p.ordinal()] += b.phaseMs(p);
            }
        }
        return out;
    }

    /** The timeline of a recorded stage, with the executors and configuration of its application. */
    public static TaskTimeline of(AppSnapshot app, StageSummary stage) {
        return build(stage.stageId(), stage.attemptId(), stage.keptTasks(), stage.endedTasks(), stage.taskDetail(),
                ExecutorSlots.of(app.executors(), app.config()));
    }

    /**
     * @param tasks     the stage attempt's kept tasks (running ones, and those whose launch or finish time is unknown
     *                  or impossible, cannot be placed and are left out)
     * @param executors the application's executors: those that ran a shown task get lanes, and so do idle ones
     *                  that were alive during the shown window and have slots
     */
    public static TaskTimeline build(int stageId, int attemptId, List<TaskRecord> tasks, long endedTasks,
                                     TaskDetail detail, List<ExecutorSlots> executors) {
        List<TaskRecord> ended = new ArrayList<>(tasks.size());
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (TaskRecord t : tasks) {
            if (t.timesKnown()) {
                ended.add(t);
                start = Math.min(start, t.launchTime());
                end = Math.max(end, Math.max(t.launchTime(), t.finishTime()));
            }
        }
        if (ended.isEmpty()) {
            start = 0;
            end = 0;
        }
        Map<String, ExecutorSlots> known = new LinkedHashMap<>();
        for (ExecutorSlots e : executors) {
            known.put(e.executorId(), e);
        }
        // Executors in a stable, human order: the driver first, then numeric ids numerically, then the rest.
        Map<String, List<TaskRecord>> byExecutor = new TreeMap<>(TaskTimeline::compareExecutorIds);
        for (TaskRecord t : ended) {
            byExecutor.computeIfAbsent(t.executorId() == null ? "unknown" : t.executorId(), k -> new ArrayList<>())
                    .add(t);
        }
        if (!ended.isEmpty()) {
            for (ExecutorSlots e : executors) {
                if (e.slots() > 0 && e.aliveDuring(start, end)) {
                    byExecutor.computeIfAbsent(e.executorId(), k -> new ArrayList<>());
                }
            }
        }

        List<ExecutorLanes> lanesByExecutor = new ArrayList<>();
        List<TimelineLane> lanes = new ArrayList<>();
        List<TimelineBar> bars = new ArrayList<>(ended.size());
        int idleBudget = MAX_IDLE_LANES;
        for (Map.Entry<String, List<TaskRecord>> e : byExecutor.entrySet()) {
            String id = e.getKey();
            ExecutorSlots info = known.get(id);
            int slots = info == null ? 0 : info.slots();
            String host = info != null && info.host() != null && !info.host().isEmpty() ? info.host()
                    : e.getValue().isEmpty() ? null : e.getValue().get(0).host();
            List<TaskRecord> mine = e.getValue();
            mine.sort(Comparator.comparingLong(TaskRecord::launchTime).thenComparingLong(TaskRecord::finishTime)
                    .thenComparingLong(TaskRecord::taskId));
            int firstLane = lanes.size();
            List<Long> laneFree = new ArrayList<>();
            List<TimelineBar> mineBars = new ArrayList<>(mine.size());
            int crowded = 0;
            for (TaskRecord t : mine) {
                int lane = -1;
                for (int i = 0; i < laneFree.size(); i++) {
                    if (laneFree.get(i) <= t.launchTime()) {
                        lane = i;
                        break;
                    }
                }
                if (lane < 0 && (slots <= 0 || laneFree.size() < slots)) {
                    lane = laneFree.size();
                    laneFree.add(0L);
                }
                if (lane < 0) {
                    // every slot busy on the driver's clock: over the slot that frees first, not on a new lane
                    lane = 0;
                    for (int i = 1; i < laneFree.size(); i++) {
                        if (laneFree.get(i) < laneFree.get(lane)) {
                            lane = i;
                        }
                    }
                    crowded++;
                }
                laneFree.set(lane, Math.max(laneFree.get(lane), Math.max(t.launchTime(), t.finishTime())));
                mineBars.add(bar(t, firstLane + lane));
            }
            int used = laneFree.size();
            int idle = Math.max(0, slots - used);
            int idleDrawn = Math.min(idle, Math.min(MAX_IDLE_LANES_PER_EXECUTOR, idleBudget));
            idleBudget -= idleDrawn;
            int drawn = used + idleDrawn;
            for (int i = 0; i < drawn; i++) {
                lanes.add(new TimelineLane(id, i));
            }
            lanesByExecutor.add(new ExecutorLanes(id, host, slots, firstLane, drawn, mine.size(),
                    maxConcurrent(mineBars), executorSideMaxConcurrent(mineBars), idle - idleDrawn, crowded));
            bars.addAll(mineBars);
        }
        return new TaskTimeline(stageId, attemptId, start, end, lanesByExecutor, lanes, bars, endedTasks, detail);
    }

    private static TimelineBar bar(TaskRecord t, int lane) {
        var m = t.metrics();
        long duration = Math.max(0, t.finishTime() - t.launchTime());
        if (m == null) {
            return new TimelineBar(t.taskId(), t.index(), t.attempt(), t.executorId(), t.host(), t.status(),
                    t.endReason(), t.speculative(), t.launchTime(), t.finishTime(), false, 0, 0, 0, 0, 0, lane);
        }
        long deser = Math.max(0, m.get(TaskMetric.EXECUTOR_DESERIALIZE_TIME));
        long run = Math.max(0, m.get(TaskMetric.EXECUTOR_RUN_TIME));
        long ser = Math.max(0, m.get(TaskMetric.RESULT_SERIALIZATION_TIME));
        // Spark's derived times (getting result, then scheduler delay as the remainder), as DistributionMetric
        // computes them.
        long getting = Math.max(0, TaskTimes.gettingResult(t.launchTime(), t.gettingResultTime(), t.finishTime()));
        long delay = Math.max(0, duration - run - deser - ser - getting);
        return new TimelineBar(t.taskId(), t.index(), t.attempt(), t.executorId(), t.host(), t.status(),
                t.endReason(), t.speculative(), t.launchTime(), t.finishTime(), true, delay, deser, run, ser, getting, lane);
    }

    /** Most driver-stamped intervals [launch, finish) overlapping at one moment. */
    private static int maxConcurrent(List<TimelineBar> bars) {
        List<long[]> edges = new ArrayList<>(bars.size() * 2);
        for (TimelineBar b : bars) {
            edges.add(new long[]{b.launchTime(), 1});
            edges.add(new long[]{Math.max(b.launchTime(), b.finishTime()), -1});
        }
        return peak(edges);
    }

    /** Most executor-side intervals [executorStart, executorEnd) overlapping at one moment. */
    private static int executorSideMaxConcurrent(List<TimelineBar> bars) {
        List<long[]> edges = new ArrayList<>(bars.size() * 2);
        for (TimelineBar b : bars) {
            if (b.metricsKnown() && b.executorEnd() > b.executorStart()) {
                edges.add(new long[]{b.executorStart(), 1});
                edges.add(new long[]{b.executorEnd(), -1});
            }
        }
        return peak(edges);
    }

    /** The most intervals open at once, given their starts (+1) and ends (-1). */
    private static int peak(List<long[]> edges) {
        // At equal times an end comes before a start: touching is not overlapping (as for the lanes).
        edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int running = 0;
        int peak = 0;
        for (long[] e : edges) {
            running += (int) e[1];
            peak = Math.max(peak, running);
        }
        return peak;
    }

    static int compareExecutorIds(String a, String b) {
        boolean da = "driver".equals(a);
        boolean db = "driver".equals(b);
        if (da || db) {
            return da == db ? 0 : da ? -1 : 1;
        }
        boolean na = isNumber(a);
        boolean nb = isNumber(b);
        if (na && nb) {
            int c = Long.compare(Long.parseLong(a), Long.parseLong(b));
            return c != 0 ? c : a.compareTo(b);
        }
        if (na != nb) {
            return na ? -1 : 1;
        }
        return a.compareTo(b);
    }

    private static boolean isNumber(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
