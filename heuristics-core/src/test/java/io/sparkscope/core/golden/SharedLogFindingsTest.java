package io.sparkscope.core.golden;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.recorder.RecorderOptions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The heuristics on real logs from Spark's tests and other tools (issue 4's checks), read in place from ../shared. */
class SharedLogFindingsTest {
    private static List<Finding> findings(String relative) throws Exception {
        Path logs = SharedData.eventLogs().orElse(null);
        Assumptions.assumeTrue(logs != null, "SKIPPED: ../shared/eventlogs not found (set SPARKSCOPE_SHARED); "
                + "heuristics on real third-party logs not checked");
        var source = EventLogReader.discover(logs.resolve(relative)).get(0);
        var snapshot = EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS, p -> { }).snapshot();
        return Diagnoser.defaults().diagnose(snapshot);
    }

    @Test
    void gpuOomLogSpillsAndFails() throws Exception {
        List<Finding> f = findings("other/spark-rapids-tools/gpu_oom_eventlog.zstd");
        Set<String> spillStages = f.stream().filter(x -> x.heuristic().equals("DiskSpill"))
                .flatMap(x -> x.stageIds().stream()).collect(Collectors.toSet());
        // NOTES.md: spills in stages 31, 34 and 35
        assertTrue(spillStages.containsAll(Set.of("31.0", "34.0", "35.0")), spillStages.toString());
        assertTrue(f.stream().anyMatch(x -> x.heuristic().equals("JobFailure") && x.severity() == Severity.HIGH));
        assertTrue(f.stream().anyMatch(x -> x.heuristic().equals("StageFailure") && x.severity() == Severity.HIGH));
    }

    @Test
    void rapidsJoinHasNoHighSkewAlarmOnAStageThatDoesNotMatter() throws Exception {
        List<Finding> f = findings("other/spark-rapids-tools/rapids_join_eventlog");
        assertEquals(List.of(), f.stream().filter(x -> x.heuristic().equals("StageSkew")
                && x.severity() == Severity.HIGH).toList());
    }

    @Test
    void sparksOwnSmallLogHasNoHighFinding() throws Exception {
        List<Finding> f = findings("spark-events/local-1430917381534");
        assertEquals(List.of(), f.stream().filter(x -> x.severity() == Severity.HIGH).toList());
    }
}
