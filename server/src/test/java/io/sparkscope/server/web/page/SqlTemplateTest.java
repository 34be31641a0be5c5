package io.sparkscope.server.web.page;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.server.web.model.SqlData;
import io.sparkscope.server.web.sql.PlanPictures;
import io.sparkscope.server.web.sql.SyntheticPlans;
import io.sparkscope.store.query.AppRefs;
import io.sparkscope.store.query.SqlQuery;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SQL tab (sql.jte), an execution's page (sqlExecution.jte) and the SQL comparison (sqlCompare.jte) are the
 * pages the code wrote, byte for byte, and descriptions, operator names, metric names, plan texts, error messages
 * and finding titles are escaped.
 */
class SqlTemplateTest {
    private static final String EVIL = TaskPages.EVIL;
    private static final long START = 1_700_000_000_000L;

    /**
     * A synthetic plan of about {@code operators} nodes under a hostile root whose metrics are named hostile, unnamed
     * and never reported.
     */
    static PlanNode plan(int operators) {
        return new PlanNode("Project " + EVIL, "Project [a#1] " + EVIL + "\nsecond line",
                List.of(SyntheticPlans.plan(operators, 1_000)), List.of(new PlanMetric("rows " + EVIL, 1, "sum"),
                new PlanMetric(null, 2, "size"), new PlanMetric("never reported", 3, "sum")));
    }

    /** An aggregate for every metric of the plan but accumulator 3, every seventh one not exact. */
    static Map<Long, SqlMetricAggregate> metrics(PlanNode n, Map<Long, SqlMetricAggregate> out) {
        for (PlanMetric m : n.metrics()) {
            long id = m.accumulatorId();
            if (id != 3) {
                long v = 1000 + id * 37;
                out.put(id, new SqlMetricAggregate(id, m.metricType(), v * 8, 8, v / 2, v, v, v * 2, 1, 0, id, 8,
                        id % 7 != 0, List.of(1)));
            }
        }
        n.children().forEach(c -> metrics(c, out));
        return out;
    }

    static SqlExecutionSummary execution(long id, int operators, boolean running) {
        PlanNode plan = operators == 0 ? null : plan(operators);
        return SqlExecutionSummary.builder().executionId(id)
                .description(id % 3 == 0 ? null : id % 3 == 1 ? " " : "select " + EVIL + "\nfrom t — naïve")
                .startTime(START + id).endTime(running ? -1 : START + id + 61_000)
                .errorMessage(id % 2 == 0 ? null : "Job aborted " + EVIL + "\nline 2\nline 3\nline 4")
                .physicalPlanDescription(id % 4 == 3 ? " " : "== Physical Plan ==\n" + EVIL)
                .plan(plan).jobIds(id % 5 == 4 ? List.of() : List.of((int) id, (int) id + 1))
                .stageIds(id % 5 == 4 ? List.of() : List.of(1, 2, 3, 9))
                .metrics(plan == null ? Map.of() : metrics(plan, new HashMap<>())).build();
    }

    /** Findings on plan nodes (hostile titles, one without), on stages only, on another execution. */
    static List<Finding> findings() {
        return List.of(
                Finding.builder("SkewedJoin", Severity.HIGH).title("Skewed join " + EVIL).message("one task " + EVIL)
                        .planNode(1, 0, "Project " + EVIL).planNode(1, 4, "Exchange").build(),
                Finding.builder("Spill " + EVIL, Severity.LOW).planNode(1, 4, "Exchange").stage("2.0").build(),
                Finding.builder("SlowStage", Severity.LOW).title("slow stage").stage("9.1").build(),
                Finding.builder("Elsewhere", Severity.HIGH).title("other query").planNode(7, 0, "x").build());
    }

    static List<SqlQuery.StageBrief> stages() {
        return List.of(new SqlQuery.StageBrief(1, 0, "map " + EVIL, "COMPLETE", 10, 1_000),
                new SqlQuery.StageBrief(2, 0, null, "FAILED", 10, 1_000),
                new SqlQuery.StageBrief(2, 1, "retry " + EVIL, "COMPLETE", 10, 1_000));
    }

    static AppRefs.Resolved app(boolean running, String name) {
        return new AppRefs.Resolved(1, "app-1 " + EVIL, running ? null : "2", name, START,
                running ? 0 : START + 3_600_000, START + 60_000, !running);
    }

    static SqlQuery.Executions executions(List<SqlExecutionSummary> list, boolean running) {
        return new SqlQuery.Executions(app(running, "ETL " + EVIL), list, JobsTemplateTest.jobs(12), findings(),
                stages(), "v1");
    }

    @Test
    void sameBytesAsTheCodeForTheListAndEveryExecution() {
        AppTabs.Live live = new AppTabs.Live(START + 61_000, 15);
        List<SqlExecutionSummary> all = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            all.add(execution(i, i % 4 == 2 ? 0 : 30, i == 5));
        }
        for (boolean running : new boolean[] {false, true}) {
            SqlQuery.Executions e = executions(all, running);
            SameBytes.assertSame(CodeSqlView.list(e, live), SqlView.list(e, live), "list running=" + running);
            SameBytes.assertSame(CodeSqlView.list(executions(List.of(), running), live),
                    SqlView.list(executions(List.of(), running), live), "empty list");
        }
        PlanPictures pictures = new PlanPictures();
        for (SqlExecutionSummary sql : all) {
            SqlQuery.Executions one = executions(List.of(sql), sql.endTime() < 0);
            SameBytes.assertSame(CodeSqlView.execution(one, pictures, live), SqlView.execution(one, pictures, live),
                    "execution " + sql.executionId());
        }
    }

    @Test
    void sameBytesAsTheCodeForTheComparison() {
        for (String name : new String[] {null, "ETL " + EVIL}) {
            for (int[] sizes : new int[][] {{30, 30}, {30, 12}, {12, 40}}) {
                SqlData.Pair p = new SqlData.Pair(
                        new SqlQuery.Executions(app(false, name), List.of(execution(1, sizes[0], false)), List.of(),
                                List.of(), List.of(), "v1"),
                        new SqlQuery.Executions(app(true, "other " + EVIL),
                                List.of(execution(5, sizes[1], true).toBuilder()
                                        .metrics(Map.of()).build()), List.of(), List.of(), List.of(), "v2"));
                SameBytes.assertSame(CodeSqlCompareView.render(p), SqlCompareView.render(p),
                        name + " " + sizes[0] + "/" + sizes[1]);
            }
        }
    }

    @Test
    void escapesDescriptionsOperatorsPlansAndFindings() {
        AppTabs.Live live = new AppTabs.Live(START + 61_000, 15);
        String page = SqlView.execution(executions(List.of(execution(1, 30, false)), false), new PlanPictures(), live);
        assertFalse(page.contains("<script>"), page);
        assertTrue(page.contains("<strong>Skewed join &lt;script&gt;"), "a finding's title");
        assertTrue(page.contains("<span class=\"name\">Project &lt;script&gt;"), "an operator's name");
        assertTrue(page.contains("<span class=\"metric-name\">rows &lt;script&gt;"), "a metric's name");
        assertTrue(page.contains("<pre>== Physical Plan ==\n&lt;script&gt;"), "the plan text");
        assertTrue(page.contains("title=\"retry &lt;script&gt;"), "a stage's name in a link's hover text");
        String list = SqlView.list(executions(List.of(execution(2, 0, false)), false), live);
        assertFalse(list.contains("<script>"), list);
        assertTrue(list.contains("select &lt;script&gt;"), "a description");
        SqlData.Pair p = new SqlData.Pair(executions(List.of(execution(1, 12, false)), false),
                executions(List.of(execution(2, 12, false)), false));
        assertFalse(SqlCompareView.render(p).contains("<script>"), "the comparison");
    }
}
