package io.sparkscope.server.web;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tables, the plan graph and the comparison read as a Spark engineer needs them, over real PostgreSQL: a failed
 * task's out-of-memory error readable on its own row, "—" where Spark measured nothing, an executor's remove reason
 * beside its lifetime, each operator's share of its query's time, a sentence for a query whose operators reported
 * nothing, and comparisons without per-run settings and with changes in percent.
 */
class ReadablePagesWebTest {
    private static final String APP = ReadableFixture.APP;

    @Test
    void aFailedTasksErrorHasItsOwnRowCutWithTheWholeTextBehindDetails() {
        String b = get("/apps/" + APP + "/stages/0/0/tasks?status=failed");
        int row = b.indexOf("<tr class=\"task-error-row\" data-error-of=\"2\">");
        assertTrue(row > 0, "the error on a row of its own under task 2");
        assertTrue(b.indexOf("data-task=\"2\"") < row, "after its task's row");
        String errorRow = b.substring(row, b.indexOf("</tr>", row));
        assertTrue(errorRow.contains("<td colspan=\"16\">"), "across every column: " + errorRow.substring(0, 120));
        Matcher first = Pattern.compile("<pre class=\"error-lines failure-reason\">([^<]*)</pre>").matcher(errorRow);
        assertTrue(first.find(), errorRow);
        assertTrue(first.group(1).startsWith("com.nvidia.spark.rapids.jni.GpuSplitAndRetryOOM: GPU OutOfMemory"));
        assertTrue(first.group(1).endsWith("&#8230;") && first.group(1).length() < 600,
                "the 700-character line is cut: " + first.group(1).length());
        assertTrue(errorRow.contains("<summary>whole text</summary>") && errorRow.contains("END-OF-FIRST-LINE"),
                "the whole text behind details");
        assertFalse(b.contains("<th>Error</th>"), "no narrow error column at the end");
        assertTrue(b.contains("<td class=\"host\">host-1</td>"), "the host in a cell kept on one line");
        assertTrue(b.contains("<td class=\"when\">"), "the launch time too");
    }

    @Test
    void peakMemoryIsADashWhereSparkMeasuredNone() {
        String b = get("/apps/" + APP + "/stages/0/0/tasks?sort=peak_memory&order=desc");
        assertTrue(b.contains("<td class=\"num\">40.0 MiB</td></tr>"), "a measured peak");
        assertTrue(row(b, "data-task=\"1\"").endsWith("<td class=\"num\">&#8212;</td>"),
                "a task with no peak execution memory: " + row(b, "data-task=\"1\""));
        assertFalse(b.contains("<td class=\"num\">0 B</td></tr>"), "never 0 B for the peak");
    }

    @Test
    void anExecutorsRemoveReasonSitsBesideItsLifetime() {
        String b = get("/apps/" + APP + "/executors");
        int removed = b.indexOf("<th>Removed</th>");
        assertTrue(removed > 0 && removed < b.indexOf("Tasks ok</th>"), "the Removed column comes before the counts");
        assertTrue(row(b, "data-executor=\"2\"").contains("<td class=\"removed\"><span class=\"muted when\">")
                && row(b, "data-executor=\"2\"").contains("Executor lost: heartbeat timed out"));
    }

    @Test
    void theStageBarSitsBesideTheDuration() {
        String b = get("/apps/" + APP);
        String head = b.substring(b.indexOf("id=\"stage-table\""), b.indexOf("</thead>", b.indexOf("id=\"stage-table\"")));
        assertTrue(head.indexOf("Where task time went") < head.indexOf(">Tasks"), "the bar right after the duration");
    }

    @Test
    void operatorsShowTheirShareOfTheQuerysTimeAsAColourAndAPercentage() {
        String b = get("/apps/" + APP + "/sql/0");
        // the codegen stage took 300 ms, the exchange wrote for 100 ms: 400 ms measured; the sort inside the
        // codegen stage (120 ms) is part of its 300 ms, not counted twice
        assertTrue(b.contains("Share of the 400 ms Spark timed"), "the legend names the total");
        assertTrue(b.contains("time 120 ms &#183; 30.0 % of the query"), "the sort's box");
        assertTrue(b.contains("time 100 ms &#183; 25.0 % of the query"), "the exchange's box");
        assertTrue(b.contains("<rect class=\"heat-5\""), "the codegen stage, 75 %, darkest");
        assertTrue(Pattern.compile("<g class=\"plan-node exchange heat-3\"[^>]*><title>Exchange").matcher(b).find(),
                "the exchange, 25 %, its step of the scale");
        assertTrue(b.contains("<span class=\"heat-swatch heat-4\"></span>120 ms &#183; 30.0 %"), "and in the table");
        assertFalse(b.contains("id=\"no-operator-metrics\""));
        assertTrue(b.contains("id=\"plan-tools\" hidden"), "zoom buttons, shown by the script");
        assertTrue(b.contains("title=\"Sort [k#12 ASC NULLS FIRST], false, 0, [plan_id=42]\">Sort [k ASC NULLS FIRST],"
                + " false, 0</span>"), "Spark's text short to read, its own on hover");
    }

    @Test
    void aQueryWhoseOperatorsReportedNothingSaysSo() {
        String b = get("/apps/" + APP + "/sql/1");
        assertTrue(b.contains("id=\"no-operator-metrics\""), "a sentence instead of unexplained dashes");
        assertTrue(b.contains("a failed task&#39;s updates are dropped"));
        assertFalse(b.contains("id=\"plan-heat-legend\""), "no scale for what nobody timed");
    }

    @Test
    void compareOfThreeRunsLeavesOutPerRunSettingsAndShowsPercent() {
        String b = get("/compare?apps=app-run-0,app-run-1,app-run-2");
        for (String key : List.of("spark.app.id", "spark.app.startTime", "spark.app.submitTime", "spark.driver.port",
                "spark.executorEnv.SPARK_DRIVER_POD_IP",
                "spark.kubernetes.driver.label.sparkoperator.k8s.io/submission-id")) {
            assertFalse(b.contains("data-key=\"" + key + "\""), key + " has its own value in every run: no row");
        }
        assertTrue(b.contains("data-key=\"spark.sql.shuffle.partitions\""), "a setting someone changed stays");
        assertTrue(b.contains("class=\"grid compare runs-3\""), "the columns share the width");
        String stages = b.substring(b.indexOf("class=\"stage-match\""));
        assertTrue(stages.contains("<span class=\"delta\">+100 %</span>")
                && stages.contains("<span class=\"delta\">+200 %</span>"), "stage durations' change in percent");
    }

    @Test
    void sqlCompareShowsTheChangeInPercent() {
        String b = get("/compare/sql?apps=" + APP + ",app-readable-2&execution=0");
        assertTrue(b.contains("<span class=\"delta\">+100 %</span>"), "the sort time doubled: " + b.length());
    }

    private static String get(String path) {
        var r = WebFixture.getAt(ReadableFixture.base(), path);
        assertEquals(200, r.status(), path + ": " + r.body());
        return r.body();
    }

    /** The table row (its cells) that carries {@code marker}. */
    private static String row(String page, String marker) {
        int at = page.indexOf(marker);
        assertTrue(at > 0, marker);
        return page.substring(at, page.indexOf("</tr>", at));
    }
}
