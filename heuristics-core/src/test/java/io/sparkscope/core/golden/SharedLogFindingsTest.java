package io.sparkscope.core.golden;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.FixFirst;
import io.sparkscope.core.heuristics.HeuristicEngine;
import io.sparkscope.core.heuristics.Invariants;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.SharedData;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The heuristics on real logs from Spark's tests and other tools, read in place from ../shared. */
class SharedLogFindingsTest {
    private static Path logs() {
        Path logs = SharedData.eventLogs().orElse(null);
        Assumptions.assumeTrue(logs != null, "SKIPPED: ../shared/eventlogs not found (set SPARKSCOPE_SHARED); "
                + "heuristics on real third-party logs not checked");
        return logs;
    }

    private static HeuristicEngine.Result result(String relative) throws Exception {
        var source = EventLogReader.discover(logs().resolve(relative)).get(0);
        var snapshot = EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS, p -> { }).snapshot();
        return Diagnoser.defaults().run(snapshot);
    }

    private static List<Finding> findings(String relative) throws Exception {
        return result(relative).findings();
    }

    /**
     * On every shared log: no advice recommends the value in force, no two findings ask for different values of one
     * key, every advice is named in its text, and every cause exists.
     */
    @Test
    void everySharedLogKeepsTheAdviceInvariants() throws Exception {
        Path root = logs();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(Files::isRegularFile)
                    .filter(p -> !p.toString().contains("expectations") && !p.toString().endsWith(".md")
                            && !p.toString().endsWith(".json"))
                    .sorted().toList();
        }
        assertTrue(files.size() > 30, "shared logs found: " + files.size());
        Diagnoser diagnoser = Diagnoser.defaults();
        int analysed = 0;
        for (Path file : files) {
            for (var source : EventLogReader.discover(file)) {
                var r = EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS, p -> { });
                if (!r.hasApplication()) {
                    continue;
                }
                HeuristicEngine.Result result = diagnoser.run(r.snapshot());
                assertEquals(List.of(), result.errors(), file.toString());
                try {
                    Invariants.check(result.findings());
                } catch (AssertionError e) {
                    throw new AssertionError(root.relativize(file) + ": " + e.getMessage(), e);
                }
                analysed++;
            }
        }
        assertTrue(analysed > 30, "applications analysed: " + analysed);
    }

    @Test
    void gpuOomFailureCauseComesFirst() throws Exception {
        HeuristicEngine.Result r = result("other/spark-rapids-tools/gpu_oom_eventlog.zstd");
        FixFirst.Item first = r.fixFirst().items().get(0);
        // stage 34's tasks ran out of GPU memory; that failed the job, and the shutdown cancelled the other stages
        assertTrue(first.findingId().equals("TaskFailure:34.0") || first.findingId().equals("StageFailure:34.0"),
                r.fixFirst().toString());
        assertEquals(first.findingId(), r.findings().get(0).id());
        assertTrue(first.knockOns().containsAll(List.of("JobFailure", "StageFailure:31.0", "StageFailure:32.0",
                "StageFailure:33.0", "StageFailure:37.0")), first.knockOns().toString());
        for (String cancelled : List.of("StageFailure:31.0", "StageFailure:32.0", "StageFailure:33.0")) {
            Finding f = r.findings().stream().filter(x -> x.id().equals(cancelled)).findFirst().orElseThrow();
            assertEquals(Severity.LOW, f.severity(), cancelled);
            assertTrue(r.findings().indexOf(f) > 0);
        }
        // 45 out-of-memory errors that differ only in buffer addresses and ids are one group
        Finding tasks = r.findings().stream().filter(x -> x.id().equals("TaskFailure:34.0")).findFirst().orElseThrow();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> groups = (List<Map<String, Object>>) tasks.details().get("errorGroups");
        assertEquals(1, groups.size(), groups.toString());
        assertEquals(45, groups.get(0).get("count"));
        // GPU executors: no CPU-core advice, and the spill is named as memory spill, not disk
        assertTrue(r.findings().stream().noneMatch(x -> x.heuristic().equals("CoreNumber")));
        assertTrue(r.findings().stream().filter(x -> x.heuristic().equals("DiskSpill"))
                .allMatch(x -> x.title().contains("none to disk")));
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
