package io.sparkscope.server.web.page;

import io.sparkscope.store.query.SqlQuery;
import io.sparkscope.store.query.StageRow;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stage table from stageTable.jte is the table the code wrote, byte for byte, in every order. */
class StageTableTemplateTest {
    private static final String EVIL = TaskPages.EVIL;

    /** Stages with quantiles (some with push-based shuffle figures), without, failed, with SQL operators. */
    static List<StageRow> stages(int n) {
        List<StageRow> rows = new ArrayList<>();
        double[] quantiles = {0.0, 0.25, 0.5, 0.75, 0.95, 1.0};
        for (int i = 0; i < n; i++) {
            Map<String, double[]> stats = new HashMap<>();
            if (i % 5 != 4) {
                for (StageTableView.Metric m : StageTableView.METRICS) {
                    if (!m.onlyWhenUsed() || i % 3 == 0) {
                        stats.put(m.path(), new double[] {i, 10.4 * i, 1_000.5 * i, 3e6 * i, 7e9 * i, 1e10 * i + 0.5});
                    }
                }
            }
            String name = i % 4 == 1 ? "collect at Query.scala:" + i + " " + EVIL + " " + "x".repeat(80)
                    : "map at Job.scala:" + i + "\nsecond line";
            rows.add(new StageRow(i % 7, i / 7, i, name, i % 6 == 2 ? "FAILED" : "COMPLETE", 100 + i, 90 + i,
                    i % 6 == 2 ? 3 : 0, 1, 1_000L * i, 2_000L * i, 977L * i, i % 6 == 2 ? "Job aborted: " + EVIL + "\nat x"
                    : null, List.of(i), 5_000L * i, 4_000_000L * i, 30L * i, 1L << i % 40, i % 2 == 0 ? 0 : 77L * i,
                    123_456L * i, 654_321L * i, 1_000_000L * i, 10L * i, "{}", i % 5 == 4 ? 0 : 100 + i,
                    i % 5 == 4 ? new double[0] : quantiles, stats, new StageRow.Times(i % 8 == 0 ? null : 40L * i,
                    i % 8 == 0 ? null : 400L * i, 3L * i, 2L * i, 7L * i, 9_000_000L * i), "ALL"));
        }
        return rows;
    }

    static Map<Integer, List<SqlQuery.StageOperator>> operators() {
        return Map.of(1, List.of(new SqlQuery.StageOperator(4, 1, "Sort"), new SqlQuery.StageOperator(4, 2, "Exchange "),
                        new SqlQuery.StageOperator(4, 3, "Sort"), new SqlQuery.StageOperator(9, 1, "Scan " + EVIL)),
                3, List.of(new SqlQuery.StageOperator(2, 7, "HashAggregate"),
                        new SqlQuery.StageOperator(5, SqlQuery.StageOperator.NO_NODE, "")),
                5, List.of(new SqlQuery.StageOperator(6, SqlQuery.StageOperator.NO_NODE, "")));
    }

    @Test
    void sameBytesAsTheCodeInEveryOrder() {
        List<StageRow> rows = stages(40);
        for (StageTableView.StageSort sort : StageTableView.StageSort.values()) {
            for (boolean desc : new boolean[] {false, true}) {
                Html code = new Html();
                CodeStageTableView.render(code, rows, operators(), "app-1 " + EVIL, desc ? null : "2", sort, desc);
                Html template = new Html();
                StageTableView.render(template, rows, operators(), "app-1 " + EVIL, desc ? null : "2", sort, desc);
                assertEquals(code.toString(), template.toString(), sort + " desc=" + desc);
            }
        }
    }

    @Test
    void escapesNamesReasonsAndOperators() {
        Html h = new Html();
        StageTableView.render(h, stages(12), operators(), "app-1", null, StageTableView.StageSort.ID, false);
        String table = h.toString();
        assertFalse(table.contains("<script>"));
        assertTrue(table.contains("Job aborted: &lt;script&gt;"), "the failure reason as text");
        assertTrue(table.contains("title=\"Scan &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;\""));
        assertTrue(table.contains("SQL 4</a>: <span class=\"stage-operators\" title=\"Sort, Exchange\">"),
                "each operator once, trimmed");
        assertTrue(table.contains("<div class=\"stage-sql muted small\"><a class=\"stage-query\" href=\"/apps/app-1/sql/6\">"
                + "SQL 6</a></div>"), "a stage of a query's jobs that no operator names still links the query: " + table);
        assertTrue(table.contains("HashAggregate</span>; <a class=\"stage-query\" href=\"/apps/app-1/sql/5\">SQL 5</a></div>"),
                "after the queries whose operators it ran");
        assertTrue(table.contains("<td class=\"stage-key\"><a class=\"stage-link\" href=\"/apps/app-1/stages/3/0\">3.0</a>"),
                "the stage's id to its page");
    }
}
