package io.sparkscope.store.query;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.ToLongFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pages deep into a stage start from kept anchors and filtered counts come from them: every page and count must
 * equal the same order computed here from the written tasks, in every order both ways and with filters, and must
 * follow the rows when the writer changes them (a new digest) without a new query object.
 */
class TaskListAnchorsTest {
    private static final int TASKS = 1_730; // a few anchor steps and a partial one
    static DataSource ds;

    @BeforeAll
    static void database() {
        ds = TestDb.migrated();
    }

    @Test
    void deepPagesAndFilteredCountsEqualTheOrderOfTheWrittenTasks() throws Exception {
        List<TaskRecord> tasks = tasks(1);
        new SnapshotWriter().write(ds, snapshot("app-anchors", tasks), List.of());
        TaskListQuery query = new TaskListQuery(ds);
        for (TaskListQuery.Sort sort : TaskListQuery.Sort.values()) {
            for (boolean desc : new boolean[]{false, true}) {
                for (Set<String> statuses : List.of(Set.<String>of(), Set.of("FAILED"), Set.of("SUCCESS", "KILLED"))) {
                    List<Long> expected = order(tasks, sort, desc, statuses, null);
                    for (int offset : new int[]{0, 499, 500, 501, 1000, 1234, 1499, 1500, 1700, 1729, 1730, 5000}) {
                        check(query, "app-anchors", expected, sort, desc, statuses, null, offset, 100, false);
                    }
                }
            }
        }
        List<Long> byExecutor = order(tasks, TaskListQuery.Sort.RUN_TIME, true, Set.of(), "3");
        check(query, "app-anchors", byExecutor, TaskListQuery.Sort.RUN_TIME, true, Set.of(), "3", 20, 20, false);
    }

    @Test
    void rewrittenTasksAreNotPagedByTheAnchorsOfTheOldOnes() throws Exception {
        TaskListQuery query = new TaskListQuery(ds);
        List<TaskRecord> first = tasks(2);
        new SnapshotWriter().write(ds, snapshot("app-rewritten", first), List.of());
        check(query, "app-rewritten", order(first, TaskListQuery.Sort.RUN_TIME, true, Set.of(), null),
                TaskListQuery.Sort.RUN_TIME, true, Set.of(), null, 1200, 50, false);
        check(query, "app-rewritten", order(first, TaskListQuery.Sort.ID, false, Set.of("SUCCESS"), null),
                TaskListQuery.Sort.ID, false, Set.of("SUCCESS"), null, 600, 50, false);
        List<TaskRecord> second = tasks(3); // other run times and statuses, same task ids
        new SnapshotWriter().write(ds, snapshot("app-rewritten", second), List.of());
        check(query, "app-rewritten", order(second, TaskListQuery.Sort.RUN_TIME, true, Set.of(), null),
                TaskListQuery.Sort.RUN_TIME, true, Set.of(), null, 1200, 50, false);
        check(query, "app-rewritten", order(second, TaskListQuery.Sort.ID, false, Set.of("SUCCESS"), null),
                TaskListQuery.Sort.ID, false, Set.of("SUCCESS"), null, 600, 50, false);
    }

    @Test
    void withoutADigestPagesStillComeOutRightAndTheCountStopsAtItsCap() throws Exception {
        List<TaskRecord> tasks = tasks(4);
        new SnapshotWriter().write(ds, snapshot("app-nodigest", tasks), List.of());
        try (var c = ds.getConnection(); var st = c.createStatement()) {
            st.executeUpdate("UPDATE stage_attempt s SET tasks_digest = NULL FROM application a"
                    + " WHERE a.app_pk = s.app_pk AND a.app_id = 'app-nodigest'");
        }
        TaskListQuery query = new TaskListQuery(ds);
        check(query, "app-nodigest", order(tasks, TaskListQuery.Sort.DURATION, true, Set.of(), null),
                TaskListQuery.Sort.DURATION, true, Set.of(), null, 1111, 100, false);
        check(query, "app-nodigest", order(tasks, TaskListQuery.Sort.ID, false, Set.of("SUCCESS"), null),
                TaskListQuery.Sort.ID, false, Set.of("SUCCESS"), null, 0, 100, false);
    }

    private static void check(TaskListQuery query, String app, List<Long> expected, TaskListQuery.Sort sort,
                              boolean desc, Set<String> statuses, String executor, int offset, int length,
                              boolean capped) throws SQLException {
        var r = new TaskListQuery.Request(0, 0, offset, length, sort, desc, statuses, executor);
        TaskListQuery.Result result = query.load(app, null, r);
        assertEquals(TaskListQuery.Outcome.FOUND, result.outcome());
        List<Long> ids = new ArrayList<>();
        for (TaskRecord t : result.page().tasks()) {
            ids.add(t.taskId());
        }
        String what = sort + (desc ? " desc" : " asc") + " " + statuses + " executor " + executor + " offset " + offset;
        assertEquals(expected.subList(Math.min(offset, expected.size()), Math.min(offset + length, expected.size())),
                ids, what);
        if (!r.filtered() || ids.size() == length) {
            assertEquals(r.filtered() ? expected.size() : TASKS, result.page().matching(), "count of " + what);
        }
        assertEquals(capped, result.page().capped(), what);
    }

    /** The table's orders as {@link TaskListQuery.Sort} defines them, ties by task id in the same direction. */
    private static List<Long> order(List<TaskRecord> tasks, TaskListQuery.Sort sort, boolean desc,
                                    Set<String> statuses, String executor) {
        ToLongFunction<TaskRecord> key = switch (sort) {
            case ID -> TaskRecord::taskId;
            case RUN_TIME -> t -> t.metrics() == null ? -1 : "SUCCESS".equals(t.status())
                    ? t.metrics().get(TaskMetric.EXECUTOR_RUN_TIME) : -t.metrics().get(TaskMetric.EXECUTOR_RUN_TIME) - 1;
            case DURATION -> TaskRecord::durationMs;
            case LAUNCH_TIME -> TaskRecord::launchTime;
            case INDEX -> TaskRecord::index;
            case GC_TIME -> t -> metric(t, TaskMetric.JVM_GC_TIME);
            case SHUFFLE_READ -> t -> metric(t, TaskMetric.SHUFFLE_REMOTE_BYTES_READ)
                    + metric(t, TaskMetric.SHUFFLE_LOCAL_BYTES_READ);
            case SPILL -> t -> metric(t, TaskMetric.MEMORY_BYTES_SPILLED) + metric(t, TaskMetric.DISK_BYTES_SPILLED);
            case PEAK_MEMORY -> t -> metric(t, TaskMetric.PEAK_EXECUTION_MEMORY);
        };
        Comparator<TaskRecord> c = Comparator.comparingLong(key).thenComparingLong(TaskRecord::taskId);
        return tasks.stream()
                .filter(t -> statuses.isEmpty() || statuses.contains(t.status()))
                .filter(t -> executor == null || executor.equals(t.executorId()))
                .sorted(desc ? c.reversed() : c)
                .map(TaskRecord::taskId)
                .toList();
    }

    private static long metric(TaskRecord t, TaskMetric m) {
        return t.metrics() == null ? 0 : t.metrics().get(m);
    }

    /** One stage's tasks with many equal run times and durations (ties), some failed, killed or without metrics. */
    private static List<TaskRecord> tasks(long seed) {
        Random r = new Random(seed);
        List<TaskRecord> out = new ArrayList<>();
        long t0 = 1_700_000_000_000L;
        for (int i = 0; i < TASKS; i++) {
            int pick = r.nextInt(20);
            String status = pick == 0 ? "FAILED" : pick == 1 ? "KILLED" : "SUCCESS";
            TaskMetrics metrics = null;
            if (pick != 2) {
                metrics = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, r.nextInt(40))
                        .set(TaskMetric.JVM_GC_TIME, r.nextInt(5))
                        .set(TaskMetric.SHUFFLE_LOCAL_BYTES_READ, r.nextInt(3) * 1024L)
                        .set(TaskMetric.PEAK_EXECUTION_MEMORY, r.nextInt(4) << 20).build();
            }
            long launch = t0 + r.nextInt(300);
            // task ids with gaps (other stages' tasks ran in between), in no relation to the partition index
            out.add(TaskRecord.builder().taskId(10_000L + 3L * i + r.nextInt(3)).index(r.nextInt(TASKS)).partitionId(i)
                    .executorId(String.valueOf(1 + i % 4)).host("worker-" + (i % 4)).locality("PROCESS_LOCAL")
                    .launchTime(launch).finishTime(launch + r.nextInt(60)).status(status)
                    .endReason("SUCCESS".equals(status) ? "Success" : "ExceptionFailure").metrics(metrics).build());
        }
        return out;
    }

    private static AppSnapshot snapshot(String appId, List<TaskRecord> tasks) {
        AppSnapshot s = SnapshotBuilder.big(appId, 1, 10);
        StageSummary st = s.stages().get(0);
        StageSummary stage = st.toBuilder().numTasks(tasks.size()).numCompleteTasks(tasks.size())
                .numCompletedIndices(tasks.size()).keptTasks(tasks).taskDetail(null).deriveTaskCounts().build();
        return SnapshotBuilder.copy(s).stages(List.of(stage)).build();
    }

    @Test
    void theTaskIdsOfTheTestStageHaveGapsAndTies() {
        List<TaskRecord> tasks = tasks(1);
        long distinctRunTimes = tasks.stream().filter(t -> t.metrics() != null)
                .mapToLong(t -> t.metrics().get(TaskMetric.EXECUTOR_RUN_TIME)).distinct().count();
        assertTrue(distinctRunTimes < 50, "ties in run time");
        assertFalse(tasks.get(TASKS - 1).taskId() - tasks.get(0).taskId() + 1 == TASKS, "gaps between task ids");
    }
}
