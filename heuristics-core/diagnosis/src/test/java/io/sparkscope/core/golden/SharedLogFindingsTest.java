package io.sparkscope.core.golden;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.JobKey;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.FixFirst;
import io.sparkscope.core.heuristics.HeuristicEngine;
import io.sparkscope.core.heuristics.Invariants;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.analysis.prediction.RegressionCheck;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.SharedData;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        List<SharedRun> runs = new ArrayList<>();
        int analysed = 0;
        for (Path file : files) {
            for (var source : EventLogReader.discover(file)) {
                var r = EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS, p -> { });
                if (!r.hasApplication()) {
                    continue;
                }
                runs.add(new SharedRun(root.relativize(file) + "", r.snapshot()));
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
        noRegressionAmongUnrelatedRunsOfOneName(runs);
    }

    /** One shared log's application, as history and Regression group it. */
    private record SharedRun(String file, AppSnapshot snapshot, JobKey key) {
        SharedRun(String file, AppSnapshot snapshot) {
            this(file, snapshot, JobKey.of(snapshot));
        }
    }

    /**
     * The shared logs hold many unrelated applications of one name (Spark shells of different users and years, Spark
     * Pi examples run by several people): grouped by name, several got a Regression against strangers. Grouped by job
     * key, no interactive session is compared with anything, and every run a Regression compares with is of the same
     * user and program.
     */
    private static void noRegressionAmongUnrelatedRunsOfOneName(List<SharedRun> runs) {
        List<SharedRun> byStart = new ArrayList<>(runs);
        byStart.sort(Comparator.comparingLong(r -> r.snapshot().startTime()));
        int byName = 0;
        int byKey = 0;
        for (int i = 0; i < byStart.size(); i++) {
            SharedRun run = byStart.get(i);
            if (!run.snapshot().complete()) {
                continue;
            }
            List<AppSnapshot> sameName = new ArrayList<>();
            List<AppSnapshot> sameKey = new ArrayList<>();
            for (SharedRun before : byStart.subList(Math.max(0, i - 200), i)) {
                if (Objects.equals(before.snapshot().appName(), run.snapshot().appName())) {
                    sameName.add(before.snapshot());
                }
                if (run.key().recurring() && run.key().value().equals(before.key().value())) {
                    sameKey.add(before.snapshot());
                    assertEquals(run.snapshot().sparkUser(), before.snapshot().sparkUser(),
                            run.file() + " is one job with " + before.file() + " only if one user ran both");
                }
            }
            if (!sameName.isEmpty() && RegressionCheck.check(run.snapshot(), sameName).isPresent()) {
                byName++;
            }
            if (!sameKey.isEmpty() && RegressionCheck.check(run.snapshot(), sameKey).isPresent()) {
                byKey++;
                assertTrue(run.key().recurring(), run.file());
            }
            String name = run.snapshot().appName() == null ? "" : run.snapshot().appName().toLowerCase(Locale.ROOT);
            if (name.equals("spark shell") || name.equals("pysparkshell") || name.startsWith("databricks shell")) {
                assertFalse(run.key().recurring(), run.file() + " is an interactive session: " + run.key());
            }
        }
        System.out.println("Regression findings on the shared logs: " + byName + " grouped by name, " + byKey
                + " grouped by job key");
        assertTrue(byName > 0, "the shared logs hold unrelated runs of one name that grouping by name compares");
        assertTrue(byKey <= byName, byKey + " > " + byName);
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
