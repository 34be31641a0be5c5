package io.sparkscope.server.web.page;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.server.web.model.Diagnosis;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The findings from findings.jte and the fix-first section from fixFirst.jte are what the code wrote, byte for byte,
 * and every user text is escaped.
 */
class FindingsTemplateTest {
    private static final String EVIL = TaskPages.EVIL;

    /**
     * Findings of every shape: blank and hostile titles, savings of wall time only, task time only, both and none,
     * setting advice, executors and settings with and without stages, more than 50 stages and keys that are not
     * stage ids, error groups of tasks and jobs, numbers with application links and tables, a root with more
     * than four knock-ons, one of them with its own, and findings naming plan operators.
     */
    static List<Finding> findings() {
        List<Finding> out = new ArrayList<>();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("failureReason", "java.lang.OutOfMemoryError " + EVIL + "\n\tat x.y(Z.java:1)");
        details.put("errorGroups", List.of(Map.of("signature", "sig " + EVIL, "count", 4, "first", "first " + EVIL,
                        "stages", List.of("3.0", "4.1"), "executors", List.of("7", "exec " + EVIL)),
                Map.of("signature", "only executors", "count", 1, "first", "x", "executors", List.of("1"))));
        details.put("reasons", List.of(Map.of("signature", "job sig", "count", 2, "first", "job first " + EVIL,
                "jobIds", List.of("1", "2"))));
        details.put("previousAppIds", List.of("app-0 " + EVIL, "app-1"));
        details.put("gcRatio", 0.33);
        details.put("custom " + EVIL, "value " + EVIL);
        details.put("distributions", Map.of("quantiles", List.of(0.0, 0.5, 1.0),
                "executorRunTime", List.of(100, 1100, 4900)));
        details.put("skewed", List.of(Map.of("stage", "1.0", "note", EVIL)));
        out.add(new Finding("Root:0.0", "TaskFailure", Severity.HIGH, "Tasks failed " + EVIL, "message " + EVIL,
                "recommendation " + EVIL, List.of("0.0", "x" + EVIL), List.of("1", "2"),
                List.of("spark.executor.memory", "key " + EVIL), details, Impact.of(70_000, 2_520_000, "basis " + EVIL),
                null, List.of(new SettingAdvice("spark.executor.memory", "4g", SettingAdvice.ValueSource.SET, "8g",
                        List.of("reason " + EVIL, "second")),
                        new SettingAdvice("key " + EVIL, null, SettingAdvice.ValueSource.UNKNOWN, "v" + EVIL,
                                List.of()))));
        List<String> many = IntStream.range(0, 60).mapToObj(i -> i + ".0").toList();
        for (int i = 0; i < 6; i++) {
            Impact impact = switch (i % 4) {
                case 0 -> Impact.of(5_000, 0, "");
                case 1 -> Impact.of(0, 9_000, "");
                case 2 -> Impact.NONE;
                default -> Impact.of(1, 1, "b");
            };
            out.add(new Finding("Knock:" + i, "Heur" + i, i % 2 == 0 ? Severity.LOW : Severity.HIGH,
                    i == 3 ? "" : "knock-on " + i + " " + EVIL, "m", i == 2 ? "" : "r", i == 1 ? many : List.of(),
                    i == 2 ? List.of("9") : List.of(), i == 4 ? List.of("spark.a", "spark.b") : List.of(), Map.of(),
                    impact, "Root:0.0", List.of()));
        }
        out.add(new Finding("Deep", "Deep", Severity.LOW, "deep", "m", "r", List.of(), List.of(), List.of(),
                Map.of(), Impact.NONE, "Knock:1", List.of()));
        out.add(new Finding("Other root", "Other", Severity.LOW, "", "", "", List.of(), List.of("e1"), List.of(),
                Map.of(), Impact.NONE, null, List.of()));
        // plan operators alone, and with a stage and a nameless one
        out.add(Finding.builder("JoinStrategy", Severity.LOW).location("ops").title("join " + EVIL)
                .planNode(3, 7, "SortMergeJoin " + EVIL).planNode(4, 2, " ").build());
        out.add(Finding.builder("FullPartitionScan", Severity.LOW).location("scan").stage("2.0").configKeys("spark.x")
                .planNode(5, 1, "Scan parquet").build());
        return out;
    }

    /** The findings and the fix-first section above them, from the code and from the templates. */
    private static void assertSame(Diagnosis d, String appId, String attemptId) {
        Html code = new Html();
        CodeFixFirstView.render(code, d);
        CodeFindingsView.render(code, d, appId, attemptId);
        Html template = new Html();
        FixFirstView.render(template, d);
        FindingsView.render(template, d, appId, attemptId);
        assertEquals(code.toString(), template.toString());
    }

    @Test
    void sameBytesAsTheCodeForEveryShapeOfFinding() {
        assertSame(Diagnosis.of(findings(), 600_000), "app-1 " + EVIL, "2");
        assertSame(Diagnosis.of(findings(), 600_000), "app-1", null);
        assertSame(Diagnosis.of(List.of(), 1_000), "app-1", null);
        assertSame(Diagnosis.of(findings().subList(7, 8), 1_000), "app-1", null); // no saving: no fix-first list
        assertSame(Diagnosis.of(DiagnosisViewTest.FINDINGS, DiagnosisViewTest.APP.durationMs()), "app-diag", null);
    }

    @Test
    void linksEveryPieceOfEvidenceAFindingNames() {
        Html h = new Html();
        FindingsView.render(h, Diagnosis.of(findings(), 600_000), "app-1", null);
        String html = h.toString();
        assertTrue(html.contains("<a class=\"stage-link\" data-stage=\"3.0\" href=\"/apps/app-1/stages/3/0\">3.0</a>"),
                "a stage to its page: " + html);
        assertTrue(html.contains("<a class=\"failed-tasks-link\" data-stage=\"4.1\""
                + " href=\"/apps/app-1/stages/4/1/tasks?status=failed\">(failed tasks)</a>"),
                "a task error's stage to its failed tasks (two executors: no executor filter)");
        assertTrue(html.contains("<a class=\"executor-link\" data-executor=\"exec &lt;script&gt;"), "executors escaped");
        assertTrue(html.contains("href=\"/apps/app-1/executors/exec%20%3Cscript%3E"), "and encoded in the path");
        assertTrue(html.contains("<a class=\"job-link\" data-job=\"2\" href=\"/apps/app-1/jobs#job-2\">2</a>"),
                "a failed job to its row");
        assertTrue(html.contains("<a class=\"operator-link\" data-node=\"3:7\" href=\"/apps/app-1/sql/3#node-7\">"
                + "SortMergeJoin &lt;script&gt;"), "an operator to its row in its query's plan");
        assertTrue(html.contains("href=\"/apps/app-1/sql/4#node-2\">node 2</a>"), "a nameless operator by its id");
        assertFalse(html.contains("failed-tasks-link\" data-stage=\"0.0\""),
                "a finding's own stage list does not claim failed tasks");
    }

    @Test
    void escapesTitlesMessagesErrorsAndNumbers() {
        Html h = new Html();
        FindingsView.render(h, Diagnosis.of(findings(), 600_000), "app-1", null);
        String html = h.toString();
        assertFalse(html.contains("<script>"), html);
        assertTrue(html.contains("Tasks failed &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;"), html);
        assertTrue(html.contains("<p class=\"message\">message &lt;script&gt;"), "the message as text");
        assertTrue(html.contains("<code class=\"signature\">sig &lt;script&gt;"), "the error signature as text");
        assertTrue(html.contains("<tr data-key=\"key &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;\">"),
                "a setting key in an attribute");
        assertTrue(html.contains("<a href=\"/apps/app-0%20"), "an application link from the numbers: " + html);
        assertTrue(html.contains(" &#8230; (60 stages)"), "stage links stop at 50");
        assertTrue(html.contains("<details class=\"knock-ons\" data-count=\"1\" open><summary>"),
                "a knock-on's own knock-ons show once it is opened");
    }
}
