package io.sparkscope.core.heuristics;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.heuristics.builtin.Facts;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.report.TextReport;
import io.sparkscope.core.testing.SqlJobEvents;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Findings and the text report name a stage Spark named after its own closure by the query it ran for. */
class ReadableStageNamesTest {
    private static final long T0 = 1_764_400_000_000L;
    private static final String SPARK4 = "$anonfun$withThreadLocalCaptured$2 at CompletableFuture.java:1768";

    @Test
    void findingsAndTheReportShowTheQuery() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.ApplicationStart("names", "app-names", null, T0, "alice"));
        SqlJobEvents.events(0, T0, 3, false, SPARK4).forEach(r::onEvent);
        r.onEvent(new SparkEvent.ApplicationEnd(T0 + 5_000));
        AppSnapshot app = r.snapshot();

        assertEquals("stage 0 'query 0'", Facts.stageLabel(app.stages().get(0), app));
        assertEquals("stage 0 '" + SPARK4 + "'", Facts.stageLabel(app.stages().get(0)),
                "the one-argument form, for custom heuristics, keeps Spark's name");
        String report = TextReport.render(app, List.of(), 5, null);
        assertTrue(report.contains("  query 0\n"), report);
        assertFalse(report.contains("$anonfun$"), report);
    }
}
