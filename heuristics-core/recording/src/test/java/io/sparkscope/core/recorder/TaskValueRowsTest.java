package io.sparkscope.core.recorder;

import io.sparkscope.core.model.TaskDistributions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The stage's task count only decides how the columns grow: the rows and quantiles are the same without it. */
class TaskValueRowsTest {
    private static final double[] QUANTILES = {0, 0.25, 0.5, 0.75, 1};

    private static TaskDistributions fill(TaskValueRows rows, int tasks) {
        for (int i = 0; i < tasks; i++) {
            long runTime = (i * 7919L) % 1000; // not in order, with ties
            rows.add(Events.task(i, i, 1000, 1000 + runTime + 5, "1", false), Events.metrics(runTime, i % 13));
        }
        return rows.distributions(QUANTILES);
    }

    @Test
    void anExpectedCountGivesTheSameRowsAsGrowingStepByStep() {
        // fewer tasks than stated (a cancelled stage), as many, more (beyond it the columns double again), and
        // counts past the limit, where the reservoir sample must pick the same rows
        for (int[] c : new int[][]{{500, 300, 40}, {500, 300, 300}, {500, 300, 777}, {500, 10_000, 2_000},
                {500, 0, 100}, {500, -1, 50}, {20_000, 10_000, 10_000}, {20_000, 10_000, 9_999}, {20_000, 10_000, 12_345},
                {20_000, 17, 5_000}, {1, 10, 3}}) {
            int limit = c[0];
            int expected = c[1];
            int tasks = c[2];
            TaskValueRows plain = new TaskValueRows(limit, 42);
            TaskValueRows told = new TaskValueRows(limit, 42);
            told.expectRows(expected);
            TaskDistributions a = fill(plain, tasks);
            TaskDistributions b = fill(told, tasks);
            String what = "limit " + limit + ", " + expected + " expected, " + tasks + " tasks";
            assertEquals(plain.rows(), told.rows(), what);
            assertEquals(Math.min(limit, tasks), told.rows(), what);
            assertEquals(plain.seen(), told.seen(), what);
            assertEquals(a.exact(), b.exact(), what);
            assertEquals(tasks <= limit, b.exact(), what);
            for (io.sparkscope.core.model.DistributionMetric m : io.sparkscope.core.model.DistributionMetric.values()) {
                assertArrayEquals(a.values(m), b.values(m), what + ", " + m);
            }
        }
    }
}
