package io.sparkscope.store;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Task metrics stored as a bigint array in {@link TaskMetric} order: the order the migration converted by is the
 * code's, rows stored as JSON before come out with the same values, and a shorter array (a row written before a
 * metric was added) reads as zeros past its end.
 */
class TaskMetricArrayTest {
    @Test
    void theStoredOrderIsTheEnumsOrder() throws SQLException {
        DataSource ds = TestDb.newDatabase();
        SchemaManager.migrate(ds);
        List<String> code = new ArrayList<>();
        for (TaskMetric m : TaskMetric.values()) {
            code.add(m.stageTotalName);
        }
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT sparkscope_task_metric_names()")) {
            rs.next();
            assertEquals(code, Arrays.asList((String[]) rs.getArray(1).getArray()),
                    "a new TaskMetric goes at the end, and a migration adds its name at the end too");
        }
    }

    @Test
    void rowsStoredAsJsonKeepTheirValues() throws Exception {
        DataSource ds = TestDb.newDatabase();
        var config = Flyway.configure().dataSource(ds).locations(SchemaManager.LOCATION)
                .table(SchemaManager.HISTORY_TABLE).baselineOnMigrate(true).baselineVersion("0");
        config.target("32").load().migrate();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            String columns = "INSERT INTO task (app_pk, stage_id, stage_attempt_id, task_id, ord, task_index, attempt,"
                    + " partition_id, speculative, launch_time, finish_time, getting_result_time, duration_ms, metrics)"
                    + " VALUES (1, 0, 0, ";
            st.execute(columns + "1, 0, 0, 0, 0, false, 10, 20, 0, 10,"
                    + " '{\"executorRunTime\": 7, \"jvmGcTime\": 3, \"shuffleWriteRecords\": 5}')");
            st.execute(columns + "2, 1, 1, 0, 1, false, 10, 20, 0, 10, '{}')");
            st.execute(columns + "3, 2, 2, 0, 2, false, 10, 20, 0, 10, NULL)");
        }
        SchemaManager.migrate(ds);

        TaskMetrics expected = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 7)
                .set(TaskMetric.JVM_GC_TIME, 3).set(TaskMetric.SHUFFLE_RECORDS_WRITTEN, 5).build();
        assertEquals(expected, metricsOf(ds, 1));
        assertEquals(TaskMetrics.builder().build(), metricsOf(ds, 2), "no metric above zero: all zeros");
        assertNull(metricsOf(ds, 3), "no metrics reported stays no metrics");
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT metrics FROM task WHERE task_id = 1")) {
            rs.next();
            long[] values = new long[TaskMetric.count()];
            values[TaskMetric.EXECUTOR_RUN_TIME.ordinal()] = 7;
            values[TaskMetric.JVM_GC_TIME.ordinal()] = 3;
            values[TaskMetric.SHUFFLE_RECORDS_WRITTEN.ordinal()] = 5;
            assertArrayEquals(values, Arrays.stream((Long[]) rs.getArray(1).getArray()).mapToLong(Long::longValue)
                    .toArray(), "dense, in the enum's order");
        }
    }

    @Test
    void aShorterArrayReadsAsZerosPastItsEnd() throws SQLException {
        DataSource ds = TestDb.newDatabase();
        SchemaManager.migrate(ds);
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("INSERT INTO task (app_pk, stage_id, stage_attempt_id, task_id, ord, task_index, attempt,"
                    + " partition_id, speculative, launch_time, finish_time, getting_result_time, duration_ms, metrics)"
                    + " VALUES (1, 0, 0, 1, 0, 0, 0, 0, false, 10, 20, 0, 10, '{4, 5, 6}')");
            try (ResultSet rs = st.executeQuery("SELECT " + TaskMetricArray.sql("", TaskMetric.EXECUTOR_RUN_TIME)
                    + ", " + TaskMetricArray.sql("", TaskMetric.SHUFFLE_BYTES_WRITTEN) + " FROM task")) {
                rs.next();
                assertEquals(6, rs.getLong(1));
                assertEquals(0, rs.getLong(2), "past the end: 0 in SQL");
            }
        }
        TaskMetrics m = metricsOf(ds, 1);
        assertEquals(6, m.get(TaskMetric.EXECUTOR_RUN_TIME));
        assertEquals(0, m.get(TaskMetric.SHUFFLE_BYTES_WRITTEN), "past the end: 0 in Java");
    }

    private static TaskMetrics metricsOf(DataSource ds, long taskId) throws SQLException {
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT metrics FROM task WHERE task_id = ?")) {
            ps.setLong(1, taskId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return TaskMetricArray.read(rs, "metrics");
            }
        }
    }
}
