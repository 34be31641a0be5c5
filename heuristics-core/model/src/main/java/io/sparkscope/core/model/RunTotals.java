package io.sparkscope.core.model;

import io.sparkscope.core.event.TaskMetric;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Figures of the whole application run, also covering the jobs, stages and SQL executions a long-running
 * application's snapshot no longer lists. A live recorder keeps only a window of recent completed entities in the
 * driver (older ones are in the database); these totals are what the driver-log report, the application row and the
 * heuristics read for application-wide numbers, so they stay right for the whole run. For a snapshot that lists
 * everything (an event log analysed offline, a snapshot read back from the database) they are derived from the
 * lists ({@link #of}).
 *
 * @param jobs                 jobs started
 * @param failedJobs           jobs that ended FAILED
 * @param stages               stage attempts
 * @param failedStages         stage attempts that ended FAILED
 * @param skippedStages        stage attempts SKIPPED
 * @param tasks                task attempts that ended, each task id once ({@link StageSummary#endedTasks()})
 * @param taskEndEvents        task-end events as Spark counts them ({@link StageSummary#taskEndEvents()})
 * @param failedTaskEnds       failed task-end events as Spark counts them, Resubmitted ones included
 * @param failedAttempts       failed task attempts other than Resubmitted ends ({@link StageSummary#numFailedAttempts()})
 * @param killedTasks          killed task-end events
 * @param resubmittedTasks     task-end events with reason Resubmitted
 * @param speculativeTasks     speculative task attempts that ended
 * @param duplicateTaskEnds    repeated task ends (a duplicated line)
 * @param tasksWithUnknownTimes task attempts with an unknown or impossible span
 * @param metrics              the stages' task-metric totals summed ({@link StageTotals})
 * @param sqlExecutions        SQL executions seen
 * @param failedSqlExecutions  SQL executions that ended with an error
 * @param taskSpans            the union of the task spans of stages no longer listed, or null when every stage is
 *                             listed (what {@code DriverTime} needs to find when no task ran)
 * @param jobGroups            per job group ({@code spark.jobGroup.id}): its jobs, failures and time
 * @param sqlDescriptions      per SQL description (the query text or name a DataFrame action ran under)
 * @param jobsNotListed        jobs counted here that the snapshot no longer lists (0: it lists them all)
 * @param stagesNotListed      stage attempts counted here that the snapshot no longer lists
 * @param sqlExecutionsNotListed SQL executions counted here that the snapshot no longer lists
 * @param executorsNotListed   removed executors that left the recorder's window: the snapshot no longer lists them
 * @param executorTaskMsNotListed the task time (sum of task durations) those executors ran
 */
public record RunTotals(
        int jobs,
        int failedJobs,
        int stages,
        int failedStages,
        int skippedStages,
        long tasks,
        long taskEndEvents,
        long failedTaskEnds,
        long failedAttempts,
        long killedTasks,
        long resubmittedTasks,
        long speculativeTasks,
        long duplicateTaskEnds,
        long tasksWithUnknownTimes,
        StageTotals metrics,
        int sqlExecutions,
        int failedSqlExecutions,
        TaskSpanSummary taskSpans,
        List<GroupTotals> jobGroups,
        List<GroupTotals> sqlDescriptions,
        int jobsNotListed,
        int stagesNotListed,
        int sqlExecutionsNotListed,
        int executorsNotListed,
        long executorTaskMsNotListed) {

    /** Group keys kept per kind; the others are counted under {@link #OTHER_GROUPS}. */
    public static final int MAX_GROUPS = 1000;
    /** Key of the group that collects every group past {@link #MAX_GROUPS}. */
    public static final String OTHER_GROUPS = "(other groups)";

    public RunTotals {
        metrics = metrics == null ? StageTotals.zero() : metrics;
        jobGroups = jobGroups == null ? List.of() : List.copyOf(jobGroups);
        sqlDescriptions = sqlDescriptions == null ? List.of() : List.copyOf(sqlDescriptions);
    }

    /** The same totals with another union of the task spans of the stages not listed (null: none). */
    public RunTotals withTaskSpans(TaskSpanSummary spans) {
        return new RunTotals(jobs, failedJobs, stages, failedStages, skippedStages, tasks, taskEndEvents,
                failedTaskEnds, failedAttempts, killedTasks, resubmittedTasks, speculativeTasks, duplicateTaskEnds,
                tasksWithUnknownTimes, metrics, sqlExecutions, failedSqlExecutions, spans, jobGroups, sqlDescriptions,
                jobsNotListed, stagesNotListed, sqlExecutionsNotListed, executorsNotListed, executorTaskMsNotListed);
    }

    /** The same totals with these removed executors not listed (they left the window) and their task time. */
    public RunTotals withExecutorsNotListed(int executors, long taskMs) {
        return new RunTotals(jobs, failedJobs, stages, failedStages, skippedStages, tasks, taskEndEvents,
                failedTaskEnds, failedAttempts, killedTasks, resubmittedTasks, speculativeTasks, duplicateTaskEnds,
                tasksWithUnknownTimes, metrics, sqlExecutions, failedSqlExecutions, taskSpans, jobGroups,
                sqlDescriptions, jobsNotListed, stagesNotListed, sqlExecutionsNotListed, executors, taskMs);
    }

    /** Whether every counted job, stage, SQL execution and executor is also listed in the snapshot. */
    public boolean listsEverything() {
        return jobsNotListed == 0 && stagesNotListed == 0 && sqlExecutionsNotListed == 0 && executorsNotListed == 0;
    }

    /** Totals of exactly these lists (nothing left out). */
    public static RunTotals of(List<JobSummary> jobs, List<StageSummary> stages, List<SqlExecutionSummary> sql) {
        Accumulator a = new Accumulator();
        jobs.forEach(a::add);
        stages.forEach(a::add);
        sql.forEach(a::add);
        return a.totals(null, 0, 0, 0);
    }

    /**
     * One group's jobs or SQL executions.
     *
     * @param key           the job group id or SQL description
     * @param count         jobs (executions) in it
     * @param failed        of which failed
     * @param durationMs    their wall times summed
     * @param maxDurationMs the longest one
     */
    public record GroupTotals(String key, long count, long failed, long durationMs, long maxDurationMs) {
        GroupTotals plus(GroupTotals o) {
            return new GroupTotals(key, count + o.count, failed + o.failed,
                    StageTotals.add(durationMs, o.durationMs), Math.max(maxDurationMs, o.maxDurationMs));
        }
    }

    /**
     * Sums entities into totals. The recorder keeps one for the entities that left its window and folds the listed
     * ones in at each snapshot; {@link #of} uses one for plain lists. Not thread-safe.
     */
    public static final class Accumulator {
        private int jobs;
        private int failedJobs;
        private int stages;
        private int failedStages;
        private int skippedStages;
        private long tasks;
        private long taskEndEvents;
        private long failedTaskEnds;
        private long failedAttempts;
        private long killedTasks;
        private long resubmittedTasks;
        private long speculativeTasks;
        private long duplicateTaskEnds;
        private long tasksWithUnknownTimes;
        private final long[] metrics = new long[TaskMetric.count()];
        private int sqlExecutions;
        private int failedSqlExecutions;
        private final Map<String, GroupTotals> jobGroups = new TreeMap<>();
        private final Map<String, GroupTotals> sqlDescriptions = new TreeMap<>();

        public Accumulator() {
        }

        /** A copy to fold more into without changing this one. */
        public Accumulator copy() {
            Accumulator c = new Accumulator();
            c.addAll(this);
            return c;
        }

        private void addAll(Accumulator o) {
            jobs += o.jobs;
            failedJobs += o.failedJobs;
            stages += o.stages;
            failedStages += o.failedStages;
            skippedStages += o.skippedStages;
            tasks += o.tasks;
            taskEndEvents += o.taskEndEvents;
            failedTaskEnds += o.failedTaskEnds;
            failedAttempts += o.failedAttempts;
            killedTasks += o.killedTasks;
            resubmittedTasks += o.resubmittedTasks;
            speculativeTasks += o.speculativeTasks;
            duplicateTaskEnds += o.duplicateTaskEnds;
            tasksWithUnknownTimes += o.tasksWithUnknownTimes;
            for (int i = 0; i < metrics.length; i++) {
                metrics[i] = StageTotals.add(metrics[i], o.metrics[i]);
            }
            sqlExecutions += o.sqlExecutions;
            failedSqlExecutions += o.failedSqlExecutions;
            o.jobGroups.values().forEach(g -> group(jobGroups, g));
            o.sqlDescriptions.values().forEach(g -> group(sqlDescriptions, g));
        }

        public void add(JobSummary j) {
            jobs++;
            boolean failed = j.status() == JobSummary.JobStatus.FAILED;
            if (failed) {
                failedJobs++;
            }
            if (j.jobGroup() != null) {
                group(jobGroups, new GroupTotals(j.jobGroup(), 1, failed ? 1 : 0, j.durationMs(), j.durationMs()));
            }
        }

        public void add(StageSummary s) {
            stages++;
            if (s.status() == StageSummary.StageStatus.FAILED) {
                failedStages++;
            } else if (s.status() == StageSummary.StageStatus.SKIPPED) {
                skippedStages++;
            }
            tasks += s.endedTasks();
            taskEndEvents += s.taskEndEvents();
            failedTaskEnds += s.numFailedTasks();
            failedAttempts += s.numFailedAttempts();
            killedTasks += s.numKilledTasks();
            resubmittedTasks += s.numResubmittedTasks();
            speculativeTasks += s.numSpeculativeTasks();
            duplicateTaskEnds += s.numDuplicateTaskEnds();
            tasksWithUnknownTimes += s.numTasksWithUnknownTimes();
            if (s.totals() != null) {
                for (TaskMetric m : TaskMetric.values()) {
                    metrics[m.ordinal()] = StageTotals.add(metrics[m.ordinal()], s.totals().get(m));
                }
            }
        }

        public void add(SqlExecutionSummary q) {
            sqlExecutions++;
            boolean failed = q.failed();
            if (failed) {
                failedSqlExecutions++;
            }
            if (q.description() != null) {
                long d = q.startTime() > 0 && q.endTime() > 0 ? Math.max(0, q.endTime() - q.startTime()) : 0;
                group(sqlDescriptions, new GroupTotals(q.description(), 1, failed ? 1 : 0, d, d));
            }
        }

        private static void group(Map<String, GroupTotals> groups, GroupTotals g) {
            String key = groups.containsKey(g.key()) || groups.size() < MAX_GROUPS ? g.key() : OTHER_GROUPS;
            GroupTotals as = key.equals(g.key()) ? g : new GroupTotals(key, g.count(), g.failed(), g.durationMs(),
                    g.maxDurationMs());
            groups.merge(key, as, GroupTotals::plus);
        }

        /**
         * @param taskSpans the union of the task spans of entities not listed, or null
         * @param jobsNotListed how many of the counted jobs the snapshot does not list (and likewise)
         */
        public RunTotals totals(TaskSpanSummary taskSpans, int jobsNotListed, int stagesNotListed,
                                int sqlNotListed) {
            return new RunTotals(jobs, failedJobs, stages, failedStages, skippedStages, tasks, taskEndEvents,
                    failedTaskEnds, failedAttempts, killedTasks, resubmittedTasks, speculativeTasks, duplicateTaskEnds,
                    tasksWithUnknownTimes, StageTotals.of(metrics), sqlExecutions, failedSqlExecutions, taskSpans,
                    new ArrayList<>(jobGroups.values()), new ArrayList<>(sqlDescriptions.values()), jobsNotListed,
                    stagesNotListed, sqlNotListed, 0, 0);
        }
    }

    /**
     * A builder with every value at its default (empty lists and maps, 0, -1 for times and counts that read -1 as
     * unknown, null where the record allows it), so a caller sets only what it knows and a value added later
     * changes no caller.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this record's values, to build a copy with a few of them changed. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.jobs = jobs;
        b.failedJobs = failedJobs;
        b.stages = stages;
        b.failedStages = failedStages;
        b.skippedStages = skippedStages;
        b.tasks = tasks;
        b.taskEndEvents = taskEndEvents;
        b.failedTaskEnds = failedTaskEnds;
        b.failedAttempts = failedAttempts;
        b.killedTasks = killedTasks;
        b.resubmittedTasks = resubmittedTasks;
        b.speculativeTasks = speculativeTasks;
        b.duplicateTaskEnds = duplicateTaskEnds;
        b.tasksWithUnknownTimes = tasksWithUnknownTimes;
        b.metrics = metrics;
        b.sqlExecutions = sqlExecutions;
        b.failedSqlExecutions = failedSqlExecutions;
        b.taskSpans = taskSpans;
        b.jobGroups = jobGroups;
        b.sqlDescriptions = sqlDescriptions;
        b.jobsNotListed = jobsNotListed;
        b.stagesNotListed = stagesNotListed;
        b.sqlExecutionsNotListed = sqlExecutionsNotListed;
        b.executorsNotListed = executorsNotListed;
        b.executorTaskMsNotListed = executorTaskMsNotListed;
        return b;
    }

    /** Builds a {@link RunTotals}; see {@link #builder()} for the defaults. */
    public static final class Builder {
        private int jobs;
        private int failedJobs;
        private int stages;
        private int failedStages;
        private int skippedStages;
        private long tasks;
        private long taskEndEvents;
        private long failedTaskEnds;
        private long failedAttempts;
        private long killedTasks;
        private long resubmittedTasks;
        private long speculativeTasks;
        private long duplicateTaskEnds;
        private long tasksWithUnknownTimes;
        private StageTotals metrics = StageTotals.zero();
        private int sqlExecutions;
        private int failedSqlExecutions;
        private TaskSpanSummary taskSpans;
        private List<GroupTotals> jobGroups = List.of();
        private List<GroupTotals> sqlDescriptions = List.of();
        private int jobsNotListed;
        private int stagesNotListed;
        private int sqlExecutionsNotListed;
        private int executorsNotListed;
        private long executorTaskMsNotListed;

        private Builder() {
        }

        public Builder jobs(int jobs) {
            this.jobs = jobs;
            return this;
        }

        public Builder failedJobs(int failedJobs) {
            this.failedJobs = failedJobs;
            return this;
        }

        public Builder stages(int stages) {
            this.stages = stages;
            return this;
        }

        public Builder failedStages(int failedStages) {
            this.failedStages = failedStages;
            return this;
        }

        public Builder skippedStages(int skippedStages) {
            this.skippedStages = skippedStages;
            return this;
        }

        public Builder tasks(long tasks) {
            this.tasks = tasks;
            return this;
        }

        public Builder taskEndEvents(long taskEndEvents) {
            this.taskEndEvents = taskEndEvents;
            return this;
        }

        public Builder failedTaskEnds(long failedTaskEnds) {
            this.failedTaskEnds = failedTaskEnds;
            return this;
        }

        public Builder failedAttempts(long failedAttempts) {
            this.failedAttempts = failedAttempts;
            return this;
        }

        public Builder killedTasks(long killedTasks) {
            this.killedTasks = killedTasks;
            return this;
        }

        public Builder resubmittedTasks(long resubmittedTasks) {
            this.resubmittedTasks = resubmittedTasks;
            return this;
        }

        public Builder speculativeTasks(long speculativeTasks) {
            this.speculativeTasks = speculativeTasks;
            return this;
        }

        public Builder duplicateTaskEnds(long duplicateTaskEnds) {
            this.duplicateTaskEnds = duplicateTaskEnds;
            return this;
        }

        public Builder tasksWithUnknownTimes(long tasksWithUnknownTimes) {
            this.tasksWithUnknownTimes = tasksWithUnknownTimes;
            return this;
        }

        public Builder metrics(StageTotals metrics) {
            this.metrics = metrics;
            return this;
        }

        public Builder sqlExecutions(int sqlExecutions) {
            this.sqlExecutions = sqlExecutions;
            return this;
        }

        public Builder failedSqlExecutions(int failedSqlExecutions) {
            this.failedSqlExecutions = failedSqlExecutions;
            return this;
        }

        public Builder taskSpans(TaskSpanSummary taskSpans) {
            this.taskSpans = taskSpans;
            return this;
        }

        public Builder jobGroups(List<GroupTotals> jobGroups) {
            this.jobGroups = jobGroups;
            return this;
        }

        public Builder sqlDescriptions(List<GroupTotals> sqlDescriptions) {
            this.sqlDescriptions = sqlDescriptions;
            return this;
        }

        public Builder jobsNotListed(int jobsNotListed) {
            this.jobsNotListed = jobsNotListed;
            return this;
        }

        public Builder stagesNotListed(int stagesNotListed) {
            this.stagesNotListed = stagesNotListed;
            return this;
        }

        public Builder sqlExecutionsNotListed(int sqlExecutionsNotListed) {
            this.sqlExecutionsNotListed = sqlExecutionsNotListed;
            return this;
        }

        public Builder executorsNotListed(int executorsNotListed) {
            this.executorsNotListed = executorsNotListed;
            return this;
        }

        public Builder executorTaskMsNotListed(long executorTaskMsNotListed) {
            this.executorTaskMsNotListed = executorTaskMsNotListed;
            return this;
        }

        public RunTotals build() {
            return new RunTotals(jobs, failedJobs, stages, failedStages, skippedStages, tasks, taskEndEvents,
                    failedTaskEnds, failedAttempts, killedTasks, resubmittedTasks, speculativeTasks, duplicateTaskEnds,
                    tasksWithUnknownTimes, metrics, sqlExecutions, failedSqlExecutions, taskSpans, jobGroups,
                    sqlDescriptions, jobsNotListed, stagesNotListed, sqlExecutionsNotListed, executorsNotListed,
                    executorTaskMsNotListed);
        }
    }
}
