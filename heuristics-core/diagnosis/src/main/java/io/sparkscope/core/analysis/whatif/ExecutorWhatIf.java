package io.sparkscope.core.analysis.whatif;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.StageSummary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Sparklens-style executor what-if (the simulation of Qubole's Sparklens): replays a run's observed task durations into
 * {@code executors × cores} slots, respecting stage dependencies, to estimate its wall time at other executor
 * counts.
 *
 * <p>The model: the run is driver-only time plus a sequence of phases. Driver-only time is the wall time during
 * which no stage had tasks running (between a stage's first task launch and its last task end); it includes
 * stage-submission overheads and driver work, and it does not change with executors. A phase is a group of jobs
 * whose [submission, completion] spans overlap (usually one job): phases run one after another, in submission
 * order, and within a phase stages wait for their parents ({@code parentIds}) and share the slots by Spark's FIFO
 * priority ({@link SlotScheduler}). Skipped stages ran no tasks and are left out. A stage retry waits for its earlier
 * attempts. Task durations are Spark's ({@code finish − launch}), so driver-side delays inside a task's span scale
 * with the task, as they would in Spark.
 */
public final class ExecutorWhatIf {
    private ExecutorWhatIf() {
    }

    public static WhatIfResult analyze(AppSnapshot app) {
        return analyze(app, WhatIfOptions.DEFAULTS);
    }

    public static WhatIfResult analyze(AppSnapshot app, WhatIfOptions options) {
        return analyze(app, options, 0);
    }

    /**
     * As {@link #analyze(AppSnapshot, WhatIfOptions)}, with every simulated executor offering {@code cores} slots
     * instead of the run's own (0: as run; ignored in local mode, where the curve scales the driver's cores). With
     * other cores no point of the curve is the run's own; the estimate at the actual count stays the run's shape.
     */
    public static WhatIfResult analyze(AppSnapshot app, WhatIfOptions options, int cores) {
        Set<WhatIfCaveat> caveats = EnumSet.noneOf(WhatIfCaveat.class);
        List<StageSummary> ran = new ArrayList<>();
        long earliestTask = Long.MAX_VALUE;
        for (StageSummary s : app.stages()) {
            if (s.status() != StageSummary.StageStatus.SKIPPED && s.firstTaskLaunchedTime() > 0) {
                ran.add(s);
                earliestTask = Math.min(earliestTask, s.firstTaskLaunchedTime());
            }
        }
        long appStart = app.startTime() > 0 ? app.startTime() : (earliestTask == Long.MAX_VALUE ? 0 : earliestTask);
        long appEnd = app.endTime() > 0 ? app.endTime() : Math.max(appStart, app.lastEventTime());
        if (!app.complete() || app.endTime() <= 0) {
            caveats.add(WhatIfCaveat.INCOMPLETE_APPLICATION);
        }
        long actual = Math.max(0, appEnd - appStart);
        long driverTime = Math.max(0, actual - busyTime(ran, appStart, appEnd));

        ClusterShape shape = ClusterShape.of(app, Math.max(appStart, earliestTask == Long.MAX_VALUE ? appStart
                : earliestTask), Math.max(appStart, latestTaskEnd(ran, appEnd)));
        caveats.addAll(shape.caveats());

        List<List<StageNode>> phases = phases(app, ran, options.order(), caveats);
        long taskTime = 0;
        long reconstructed = 0;
        long criticalPath = driverTime;
        long mostTasksInAPhase = 1;
        for (List<StageNode> phase : phases) {
            long tasks = 0;
            for (StageNode node : phase) {
                taskTime += node.tasks().total();
                reconstructed += node.tasks().reconstructed();
                tasks += node.tasks().durations().length;
            }
            mostTasksInAPhase = Math.max(mostTasksInAPhase, tasks);
            criticalPath += SlotScheduler.criticalPath(phase);
        }
        if (reconstructed > 0) {
            caveats.add(WhatIfCaveat.TASKS_RECONSTRUCTED);
        }
        if (taskTime == 0) {
            caveats.add(WhatIfCaveat.NO_TASKS);
        }

        TreeSet<Integer> counts = new TreeSet<>();
        counts.add(shape.executors());
        for (double f : options.scaleFactors()) {
            counts.add((int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round(shape.executors() * f))));
        }
        if (shape.slots() > mostTasksInAPhase) {
            // Said only when the run itself claims more slots than tasks: scaling up a small run past its task
            // count is the curve flattening, not a claim worth a caveat.
            caveats.add(WhatIfCaveat.SLOTS_CAPPED);
        }
        int perExecutor = cores > 0 && !shape.local() ? cores : shape.coresPerExecutor();
        boolean ownCores = perExecutor == shape.coresPerExecutor();
        List<WhatIfPoint> curve = new ArrayList<>();
        long atActual = ownCores ? 0 : wallAt(phases, driverTime, shape.slots(), mostTasksInAPhase);
        for (int executors : counts) {
            long slots = (long) executors * perExecutor;
            long wall = wallAt(phases, driverTime, slots, mostTasksInAPhase);
            boolean isActual = ownCores && executors == shape.executors();
            if (isActual) {
                atActual = wall;
            }
            curve.add(new WhatIfPoint(executors, slots, wall, isActual));
        }
        long ideal = driverTime + Math.round((double) taskTime / Math.max(1, shape.slots()));
        long error = atActual - actual;
        return new WhatIfResult(app.appId(), options.order(), shape.local(), perExecutor,
                shape.executors(), shape.slots(), actual, driverTime, taskTime, recordedTaskTime(app), criticalPath,
                ideal, atActual, error, actual == 0 ? 0 : (double) error / actual, curve,
                phases.stream().mapToInt(List::size).sum(), phases.size(), reconstructed, new ArrayList<>(caveats));
    }

    /** The simulated wall time with {@code slots} task slots. */
    private static long wallAt(List<List<StageNode>> phases, long driverTime, long slots, long mostTasksInAPhase) {
        // More slots than a phase has tasks leave the extra ones idle: the estimate is the same with one slot per
        // task, and the scheduler's work stays bounded by the tasks, not by what the log claims.
        int simulated = (int) Math.min(slots, mostTasksInAPhase);
        long wall = driverTime;
        for (List<StageNode> phase : phases) {
            wall += SlotScheduler.makespan(phase, simulated);
        }
        return wall;
    }

    private static long latestTaskEnd(List<StageSummary> stages, long appEnd) {
        long last = 0;
        for (StageSummary s : stages) {
            last = Math.max(last, s.lastTaskFinishedTime() > 0 ? s.lastTaskFinishedTime() : appEnd);
        }
        return Math.min(appEnd, last);
    }

    /** Wall time during which at least one stage had tasks running, clipped to the application's span. */
    static long busyTime(List<StageSummary> stages, long appStart, long appEnd) {
        List<long[]> spans = new ArrayList<>();
        for (StageSummary s : stages) {
            long from = Math.max(appStart, s.firstTaskLaunchedTime());
            // A stage whose tasks never finished (failed, or still running in a cut log) was busy until it ended.
            long to = s.lastTaskFinishedTime() > 0 ? s.lastTaskFinishedTime()
                    : s.completionTime() > 0 ? s.completionTime() : appEnd;
            to = Math.min(appEnd, to);
            if (to > from) {
                spans.add(new long[]{from, to});
            }
        }
        spans.sort(Comparator.comparingLong(a -> a[0]));
        long busy = 0;
        long curFrom = Long.MIN_VALUE;
        long curTo = Long.MIN_VALUE;
        for (long[] span : spans) {
            if (span[0] > curTo) {
                busy += Math.max(0, curTo - curFrom);
                curFrom = span[0];
                curTo = span[1];
            } else {
                curTo = Math.max(curTo, span[1]);
            }
        }
        busy += Math.max(0, curTo - curFrom);
        return busy;
    }

    /**
     * Groups the stages that ran into phases: jobs whose spans overlap share one; stages no known job claims are
     * phases of their own, placed by their first task launch.
     */
    private static List<List<StageNode>> phases(AppSnapshot app, List<StageSummary> ran, TaskOrder order,
                                                Set<WhatIfCaveat> caveats) {
        // Sort the jobs by submission and merge each into the current phase while its span overlaps the phase's.
        List<JobSummary> jobs = new ArrayList<>(app.jobs());
        long fallbackEnd = app.endTime() > 0 ? app.endTime() : app.lastEventTime();
        jobs.sort(Comparator.comparingLong(JobSummary::submissionTime).thenComparingInt(JobSummary::jobId));
        Map<Integer, Long> phaseOfJob = new HashMap<>();
        long phaseKey = -1;
        long phaseEnd = Long.MIN_VALUE;
        int jobsInPhase = 0;
        for (JobSummary j : jobs) {
            long end = j.completionTime() > 0 ? j.completionTime() : fallbackEnd;
            if (j.submissionTime() > 0 && j.submissionTime() < phaseEnd) {
                phaseEnd = Math.max(phaseEnd, end);
                jobsInPhase++;
                if (jobsInPhase == 2) {
                    caveats.add(WhatIfCaveat.CONCURRENT_JOBS);
                }
            } else {
                phaseKey = j.submissionTime();
                phaseEnd = end;
                jobsInPhase = 1;
            }
            phaseOfJob.put(j.jobId(), phaseKey);
        }
        // Phases in the order they ran: a job phase by its first submission, an orphan stage by its first launch.
        record PhaseKey(long at, boolean orphan, int stageId) {
        }
        TreeMap<PhaseKey, List<StageSummary>> grouped = new TreeMap<>(Comparator.comparingLong(PhaseKey::at)
                .thenComparing(PhaseKey::orphan).thenComparingInt(PhaseKey::stageId));
        for (StageSummary s : ran) {
            int job = firstJob(s);
            Long at = job == Integer.MAX_VALUE ? null : phaseOfJob.get(job);
            PhaseKey key = at != null ? new PhaseKey(at, false, 0)
                    : new PhaseKey(s.firstTaskLaunchedTime(), true, s.stageId());
            grouped.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
        }
        List<List<StageNode>> out = new ArrayList<>();
        for (List<StageSummary> stages : grouped.values()) {
            out.add(nodes(stages, order));
        }
        return out;
    }

    private static List<StageNode> nodes(List<StageSummary> stages, TaskOrder order) {
        List<StageNode> out = new ArrayList<>();
        for (StageSummary s : stages) {
            List<Integer> parents = new ArrayList<>();
            for (int i = 0; i < stages.size(); i++) {
                StageSummary p = stages.get(i);
                boolean parentStage = s.parentIds().contains(p.stageId());
                boolean earlierAttempt = p.stageId() == s.stageId() && p.attemptId() < s.attemptId();
                if (parentStage || earlierAttempt) {
                    parents.add(i);
                }
            }
            out.add(new StageNode(s.stageId(), s.attemptId(), firstJob(s), parents, StageTasks.of(s, order)));
        }
        return out;
    }

    private static int firstJob(StageSummary s) {
        int job = Integer.MAX_VALUE;
        for (int j : s.jobIds()) {
            job = Math.min(job, j);
        }
        return job;
    }

    private static long recordedTaskTime(AppSnapshot app) {
        long t = 0;
        for (ExecutorSummary e : app.executors()) {
            t += e.totalDuration();
        }
        return t;
    }
}
