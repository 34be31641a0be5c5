package io.sparkscope.store;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.core.model.TaskTimeSums;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Flattens a snapshot into one {@code Object[]} per row and table, in {@link Table#columns()} order. Shared by the
 * batched and the row-by-row writer so they write exactly the same data.
 */
final class SnapshotRows {
    private SnapshotRows() {
    }

    static Map<Table, List<Object[]>> of(AppSnapshot s, List<StoredFinding> findings) {
        return of(s, findings, taskDigests(s), Set.of());
    }

    /** {@link TaskDigest} of each stage attempt's kept tasks, by {@link #stageKey}. */
    static Map<Long, Long> taskDigests(AppSnapshot s) {
        Map<Long, Long> out = new HashMap<>();
        for (StageSummary st : s.stages()) {
            out.put(stageKey(st.stageId(), st.attemptId()), TaskDigest.of(st.keptTasks()));
        }
        return out;
    }

    static long stageKey(int stageId, int attemptId) {
        return ((long) stageId << 32) | (attemptId & 0xffffffffL);
    }

    /**
     * @param digests      from {@link #taskDigests}, written into each stage row
     * @param tasksOmitted stage keys whose task rows are left out (the database already holds exactly them)
     */
    static Map<Table, List<Object[]>> of(AppSnapshot s, List<StoredFinding> findings, Map<Long, Long> digests,
                                         Set<Long> tasksOmitted) {
        Map<Table, List<Object[]>> rows = new LinkedHashMap<>();
        for (Table t : Tables.ALL) {
            rows.put(t, new ArrayList<>());
        }
        config(rows.get(Tables.CONFIGURATION), "spark", s.config().sparkProperties());
        config(rows.get(Tables.CONFIGURATION), "jvm", s.config().jvmInformation());
        config(rows.get(Tables.CONFIGURATION), "system", s.config().systemProperties());
        config(rows.get(Tables.CONFIGURATION), "hadoop", s.config().hadoopProperties());
        int ord = 0;
        for (ExecutorSummary e : s.executors()) {
            rows.get(Tables.EXECUTOR).add(executor(e, ord++));
        }
        // A partial snapshot lists some jobs, stages and SQL executions of many: its list positions would not order
        // them among the stored ones, their ids do (and a full snapshot's positions, never above its sorted ids,
        // order with them). The reader breaks ties by id.
        boolean byId = s.partial();
        ord = 0;
        for (JobSummary j : s.jobs()) {
            rows.get(Tables.JOB).add(job(j, byId ? j.jobId() : ord++));
        }
        ord = 0;
        for (StageSummary st : s.stages()) {
            long key = stageKey(st.stageId(), st.attemptId());
            rows.get(Tables.STAGE).add(stage(st, byId ? st.stageId() : ord++, digests.get(key)));
            statistics(rows.get(Tables.STAGE_STATISTICS), st);
            if (tasksOmitted.contains(key)) {
                continue;
            }
            int taskOrd = 0;
            for (TaskRecord t : st.keptTasks()) {
                rows.get(Tables.TASK).add(task(st, t, taskOrd++));
            }
        }
        ord = 0;
        for (SqlExecutionSummary q : s.sqlExecutions()) {
            rows.get(Tables.SQL_EXECUTION).add(sql(q, byId ? (int) Math.min(Integer.MAX_VALUE, q.executionId()) : ord++));
        }
        ord = 0;
        for (StoredFinding f : findings) {
            rows.get(Tables.FINDING).add(finding(f, ord++));
        }
        return rows;
    }

    private static void config(List<Object[]> out, String scope, Map<String, String> props) {
        props.forEach((k, v) -> out.add(new Object[]{scope, k, v}));
    }

    private static Object[] executor(ExecutorSummary e, int ord) {
        return new Object[]{e.executorId(), ord, e.host(), e.totalCores(), e.addTime(), e.removeTime(),
                e.removeReason(), e.maxMemory(), e.completedTasks(), e.failedTasks(), e.killedTasks(),
                e.totalDuration(), e.totalRunTime(), e.totalCpuTimeNs(), e.totalGcTime(), e.inputBytes(),
                e.shuffleReadBytes(), e.shuffleWriteBytes(), e.memoryBytesSpilled(), e.diskBytesSpilled(),
                Json.write(e.peakMetrics())};
    }

    private static Object[] job(JobSummary j, int ord) {
        return new Object[]{j.jobId(), ord, j.name(), j.description(), j.jobGroup(), j.submissionTime(),
                j.completionTime(), j.durationMs(), j.status().name(), j.failureReason(), ints(j.stageIds()),
                j.sqlExecutionId(), j.numTasks(), j.numCompletedTasks(), j.numFailedTasks(), j.numKilledTasks(),
                j.numSkippedStages()};
    }

    private static Object[] stage(StageSummary s, int ord, Long tasksDigest) {
        StageTotals t = s.totals() == null ? StageTotals.zero() : s.totals();
        TaskDistributions d = s.taskSummary();
        TaskTimeSums times = s.taskTimes();
        return new Object[]{s.stageId(), s.attemptId(), ord, s.name(), s.details(), s.status().name(), s.numTasks(),
                s.numActiveTasks(), s.numCompleteTasks(), s.numFailedTasks(), s.numKilledTasks(),
                s.numCompletedIndices(), s.submissionTime(), s.completionTime(), s.firstTaskLaunchedTime(),
                s.lastTaskFinishedTime(), s.durationMs(), s.failureReason(), ints(s.parentIds()), ints(s.jobIds()),
                t.get(TaskMetric.EXECUTOR_RUN_TIME), t.get(TaskMetric.EXECUTOR_CPU_TIME), t.get(TaskMetric.JVM_GC_TIME),
                t.get(TaskMetric.MEMORY_BYTES_SPILLED), t.get(TaskMetric.DISK_BYTES_SPILLED), t.shuffleReadBytes(),
                t.get(TaskMetric.SHUFFLE_BYTES_WRITTEN), t.get(TaskMetric.INPUT_BYTES), t.get(TaskMetric.OUTPUT_BYTES),
                Json.totals(t), Json.write(s.endReasons()),
                d == null ? null : d.count(), d == null ? null : doubles(d.quantiles()),
                s.taskDetail().name(), tasksDigest, times == null ? null : times.durationMs(),
                times == null ? null : times.schedulerDelayMs(), times == null ? null : times.gettingResultMs()};
    }

    private static void statistics(List<Object[]> out, StageSummary s) {
        TaskDistributions d = s.taskSummary();
        if (d == null) {
            return;
        }
        for (DistributionMetric m : DistributionMetric.values()) {
            out.add(new Object[]{s.stageId(), s.attemptId(), m.path, doubles(d.values(m))});
        }
    }

    private static Object[] task(StageSummary s, TaskRecord t, int ord) {
        return new Object[]{s.stageId(), s.attemptId(), t.taskId(), ord, t.index(), t.attempt(), t.partitionId(),
                t.executorId(), t.host(), t.locality(), t.speculative(), t.launchTime(), t.finishTime(),
                t.gettingResultTime(), t.durationMs(), t.status(), t.endReason(), t.errorMessage(),
                Json.sparseMetrics(t.metrics())};
    }

    private static Object[] sql(SqlExecutionSummary q, int ord) {
        return new Object[]{q.executionId(), ord, q.description(), q.startTime(), q.endTime(), q.errorMessage(),
                q.physicalPlanDescription(), Json.plan(q.plan()), ints(q.jobIds()), Json.write(q.metricValues())};
    }

    private static Object[] finding(StoredFinding f, int ord) {
        return new Object[]{f.id(), ord, f.heuristic(), f.severity(), f.title(), f.message(), f.recommendation(),
                f.stageIds().toArray(String[]::new), f.executorIds().toArray(String[]::new),
                f.configKeys().toArray(String[]::new), f.detailsJson()};
    }

    static Integer[] ints(List<Integer> list) {
        return list.toArray(Integer[]::new);
    }

    static Double[] doubles(double[] values) {
        Double[] out = new Double[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i];
        }
        return out;
    }
}
