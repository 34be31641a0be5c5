package io.sparkscope.core.report;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.whatif.ExecutorWhatIf;
import io.sparkscope.core.analysis.whatif.WhatIfResult;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.testing.SyntheticLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The streamed report ({@code analyze --json}) is the same JSON as the one built in memory, field for field. */
class SnapshotJsonStreamTest {
    @Test
    void streamedAndBuiltFormsAreTheSame(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("app");
        new SyntheticLog("app-json", "json", 1_700_000_000_000L, 6, 30).executors(3).writeTo(log);
        Recorder r = new Recorder();
        EventLogReader.read(EventLogSource.ofFile(log), r::onEvent, p -> { });
        AppSnapshot s = r.snapshot();
        List<Finding> findings = Diagnoser.defaults().diagnose(s);
        double[] qs = TaskDistributions.SPARK_DEFAULT_QUANTILES;
        WhatIfResult what = ExecutorWhatIf.analyze(s);

        Map<String, Object> built = SnapshotJson.toMap(s, qs, findings, true);
        built.put("efficiency", EfficiencyJson.of(Efficiency.of(s), Prices.NONE));
        Map<String, Object> whatIf = WhatIfJson.of(what);
        whatIf.put("caveats", List.of());
        built.put("whatIf", whatIf);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = SnapshotJson.generator(out)) {
            SnapshotJson.writeOpen(g, s, qs, findings, true);
            g.writeFieldName("efficiency");
            EfficiencyJson.write(g, Efficiency.of(s), Prices.NONE);
            g.writeFieldName("whatIf");
            WhatIfJson.write(g, what, Map.of("caveats", List.of()));
            g.writeEndObject();
        }
        assertEquals(SnapshotJson.toJson(built), out.toString(StandardCharsets.UTF_8));
    }
}
