package io.sparkscope.server.web.page;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.server.web.model.Diagnosis;
import io.sparkscope.server.web.model.FindingDetails;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The diagnosis sections rendered from the real engine's findings on a recorded failing application. */
class DiagnosisViewTest {
    static final AppSnapshot APP = SnapshotBuilder.failingStageCancelsOthers("app-diag", "sessions", "ann", 1_000_000);
    static final List<Finding> FINDINGS = Diagnoser.defaults().diagnose(APP);

    @Test
    void theTaskFailureIsTheRootWithItsKnockOnsUnderIt() {
        Diagnosis d = Diagnosis.of(FINDINGS, APP.durationMs());
        Diagnosis.Node root = d.roots().get(0);
        assertEquals("TaskFailure:0.0", root.finding().id(), FINDINGS.stream().map(Finding::id).toList().toString());
        assertEquals("StageFailure:0.0", root.knockOns().get(0).finding().id());
        List<String> underStage = root.knockOns().get(0).knockOns().stream().map(n -> n.finding().id()).toList();
        assertTrue(underStage.contains("JobFailure"), underStage.toString());
        assertTrue(underStage.contains("StageFailure:1.0"), "the cancelled stage sits under the failure: " + underStage);
        assertEquals(3, root.descendants());
        assertEquals("TaskFailure:0.0", d.fixFirst().items().get(0).findingId());
        assertTrue(d.fixFirst().items().size() <= 3);
        assertTrue(d.roots().stream().noneMatch(n -> n.finding().id().equals("StageFailure:1.0")));
    }

    @Test
    void pageSectionsShowSavingAdviceErrorsAndLabelledNumbers() {
        Diagnosis d = Diagnosis.of(FINDINGS, APP.durationMs());
        Html h = new Html();
        FixFirstView.render(h, d);
        FindingsView.render(h, d, "app-diag", null);
        String html = h.toString();
        assertTrue(html.contains("<section class=\"fix-first\" id=\"fix-first\">"), html);
        assertTrue(html.contains("<li class=\"fix-item\" data-finding=\"TaskFailure:0.0\"><span class=\"pill sev-high\">"
                + "HIGH</span> <a href=\"#finding-TaskFailure-0-0\">"), html);
        assertTrue(html.contains("id=\"finding-TaskFailure-0-0\" data-finding=\"TaskFailure:0.0\""));
        assertTrue(html.contains("<details class=\"knock-ons\" data-count=\"3\"><summary>3 knock-on findings caused by"
                + " this: Stage 0 failed</summary>"), html);
        assertTrue(html.contains("Fixing it could save about <strong>"), "the estimated saving");
        // the four out-of-memory errors differ in sizes and addresses: one group of 4, its first occurrence as is
        assertTrue(html.contains("<div class=\"error-group\" data-kind=\"TASK\" data-count=\"4\">"), html);
        assertTrue(html.contains("java.lang.OutOfMemoryError: Unable to acquire &lt;n&gt; bytes of memory, got &lt;n&gt;"
                + " (buffer at &lt;hex&gt;)"), "normalised message");
        assertTrue(html.contains("<pre class=\"first\">java.lang.OutOfMemoryError: Unable to acquire 67108864 bytes of"
                + " memory, got 1048576 (buffer at 0x7f123456)"), "first occurrence verbatim");
        assertTrue(html.contains("data-kind=\"STAGE\""), "the stage's own failure reason");
        assertTrue(html.contains("<a class=\"stage-link\" data-stage=\"0.0\" href=\"/apps/app-diag/stages/0/0\">0.0</a>"
                + " <a class=\"timeline-link muted\" data-stage=\"0.0\" href=\"/apps/app-diag/stages/0/0/timeline\">"),
                "stage ids link to the stage page and its timeline");
        assertTrue(html.contains("<tr data-key=\"failedRatio\"><th>Share of attempts that failed</th><td>"),
                "labelled numbers");
        assertFalse(html.contains("<th>failedRatio</th>"), "no raw key dump");
        assertTrue(html.contains("<table class=\"grid small advice\">"), "setting advice with now / try");
    }

    @Test
    void detailsGetLabelsAndUnits() {
        FindingDetails d = FindingDetails.of("ExecutorGc", Map.of("gcRatio", 0.33, "gcTimeMs", 572_000L,
                "executorMemoryBytes", 4L << 30, "idleCoreHours", 0.4, "customWaitMs", 1500));
        Map<String, String> byLabel = new java.util.HashMap<>();
        d.rows().forEach(r -> byLabel.put(r.label(), r.text()));
        assertEquals("33.0 %", byLabel.get("GC share of run time"));
        assertEquals("9 min 32 s", byLabel.get("GC time"));
        assertEquals("4.0 GiB", byLabel.get("Executor memory"));
        assertEquals("0.4 core-hours", byLabel.get("Idle core time"));
        assertEquals("1.5 s", byLabel.get("Custom wait"), "a custom heuristic's key, labelled from its name");
        FindingDetails dist = FindingDetails.of("StageSkew", Map.of("distributions", Map.of("quantiles",
                List.of(0.0, 0.5, 1.0), "executorRunTime", List.of(100, 1100, 4900))));
        FindingDetails.Table t = dist.tables().get(0);
        assertEquals(List.of("Metric", "min", "median", "max"), t.columns());
        assertEquals(List.of("Executor run time", "100 ms", "1.1 s", "4.9 s"), t.rows().get(0));
    }
}
