package io.sparkscope.core.sql;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A live recorder diagnoses its whole window, then each SQL execution leaving it on a snapshot of its own, then the
 * window again: the window's plan graphs must survive the one-execution snapshots in between.
 */
class SqlPlansCacheTest {
    private static PlanNode plan(long id) {
        PlanNode scan = new PlanNode("Range", "Range (0, 4, step=1, splits=1)", List.of(),
                List.of(new PlanMetric("number of output rows", id * 10, "sum")));
        return new PlanNode("Project", "Project [(id * 2) AS x]", List.of(scan), List.of());
    }

    private static AppSnapshot window() {
        SnapshotBuilder b = SnapshotBuilder.app();
        for (long id = 1; id <= 20; id++) {
            b.sql(id, plan(id), Map.of());
        }
        return b.build();
    }

    /** The same application fields with other SQL executions (the recorder's next snapshot or a last look). */
    private static AppSnapshot with(AppSnapshot s, List<io.sparkscope.core.model.SqlExecutionSummary> sql) {
        return SnapshotBuilder.copy(s).sqlExecutions(sql).build();
    }

    @Test
    void windowGraphsSurviveOneExecutionSnapshotsInBetween() {
        AppSnapshot first = window();
        SqlPlans firstPlans = SqlPlans.of(first);
        assertEquals(20, firstPlans.plans().size());
        // three executions leave, each diagnosed alone
        for (int i = 0; i < 3; i++) {
            AppSnapshot lastLook = with(first, List.of(first.sqlExecutions().get(i)));
            SqlPlans alone = SqlPlans.of(lastLook);
            assertEquals(1, alone.plans().size());
            assertSame(firstPlans.plans().get(i), alone.plans().get(0), "the leaving execution's graph is taken over");
        }
        // the next snapshot of the window: the 17 left over, same summary objects, a new snapshot object
        AppSnapshot next = with(first, first.sqlExecutions().subList(3, 20));
        SqlPlans nextPlans = SqlPlans.of(next);
        assertEquals(17, nextPlans.plans().size());
        for (int i = 0; i < 17; i++) {
            assertSame(firstPlans.plans().get(i + 3), nextPlans.plans().get(i),
                    "graph of execution " + (i + 4) + " laid out again");
        }
    }

    @Test
    void anotherApplicationsPlansAreBuiltAnew() {
        AppSnapshot one = window();
        SqlPlans onePlans = SqlPlans.of(one);
        AppSnapshot other = window(); // equal content, but other summary objects: nothing to take over by identity
        SqlPlans otherPlans = SqlPlans.of(other);
        assertEquals(onePlans.plans().size(), otherPlans.plans().size());
        for (int i = 0; i < otherPlans.plans().size(); i++) {
            assertNotSame(onePlans.plans().get(i), otherPlans.plans().get(i));
            assertSame(other.sqlExecutions().get(i), otherPlans.plans().get(i).sql());
        }
    }

    @Test
    void aSnapshotWithoutSqlHasNoPlansAndLeavesTheCacheAlone() {
        AppSnapshot first = window();
        SqlPlans firstPlans = SqlPlans.of(first);
        // a last look at leaving stages: no SQL execution in it
        SqlPlans none = SqlPlans.of(with(first, List.of()));
        assertEquals(List.of(), none.plans());
        assertEquals(List.of(), none.operators(1));
        // the window asked again: the last build is still the one answered, not built again
        assertSame(firstPlans, SqlPlans.of(first));
    }
}
