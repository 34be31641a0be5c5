package io.sparkscope.core.eventlog;

import io.sparkscope.core.event.SparkEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Real event logs from Spark's test suite and other tools, read in place from {@code ../shared/eventlogs}
 * (third-party files, read in place and never copied into the project). Skipped, visibly, where that folder is absent.
 */
class SharedEventLogsTest {
    private static Path shared;

    @BeforeAll
    static void locate() {
        shared = locateSharedEventLogs();
        assumeTrue(shared != null, "../shared/eventlogs not found (set SPARKSCOPE_SHARED or run from a checkout "
                + "next to it): skipping the tests on real Spark event logs");
    }

    static Path locateSharedEventLogs() {
        return io.sparkscope.core.testing.SharedData.eventLogs().orElse(null);
    }

    private record Outcome(ReadStats stats, List<String> problems, long taskEnds, boolean applicationEnd) {
    }

    private static Outcome read(EventLogSource source) {
        List<String> problems = new ArrayList<>();
        long[] taskEnds = {0};
        boolean[] end = {false};
        ReadStats stats = EventLogReader.read(source, e -> {
            if (e instanceof SparkEvent.TaskEnd) {
                taskEnds[0]++;
            } else if (e instanceof SparkEvent.ApplicationEnd) {
                end[0] = true;
            }
        }, problems::add);
        return new Outcome(stats, problems, taskEnds[0], end[0]);
    }

    @Test
    void everyLogIsReadWithoutException() throws Exception {
        List<String> warnings = new ArrayList<>();
        List<EventLogSource> logs = EventLogReader.discover(shared, warnings::add);
        assertTrue(logs.size() >= 40, "found " + logs.size());
        Map<String, List<String>> problems = new TreeMap<>();
        for (EventLogSource log : logs) {
            Outcome o = read(log);
            assertTrue(o.stats().events() > 0, log.path().toString());
            if (!o.problems().isEmpty()) {
                problems.put(shared.relativize(log.path()).toString(), o.problems());
            }
        }
        // the one deliberately broken file is the only one with problems
        assertEquals(List.of("other/spark-rapids-tools/malformed_json_eventlog"), List.copyOf(problems.keySet()),
                problems.toString());
        // non-logs (SOURCES.md, the expectation CSVs, Sparklens' own JSON) are skipped with warnings
        assertTrue(warnings.stream().anyMatch(w -> w.contains("local-1532512550423.sparklens.json")), warnings.toString());
    }

    @Test
    void malformedLineFourIsReported() throws Exception {
        Path file = shared.resolve("other/spark-rapids-tools/malformed_json_eventlog");
        Outcome o = read(EventLogReader.discover(file).get(0));
        assertEquals(1, o.problems().size(), o.problems().toString());
        assertTrue(o.problems().get(0).startsWith(file + ":4: malformed JSON"), o.problems().get(0));
        assertEquals(1, o.stats().malformedLines());
        assertTrue(o.applicationEnd(), "the rest of the log is read");
    }

    @Test
    void zstdLogsAreReadCompletely() throws Exception {
        Map<String, Long> expectedTaskEnds = Map.of("gpu_oom_eventlog.zstd", 12416L,
                "tasks_executors_fail_compressed_eventlog.zstd", 8630L);
        for (Map.Entry<String, Long> e : expectedTaskEnds.entrySet()) {
            Path file = shared.resolve("other/spark-rapids-tools").resolve(e.getKey());
            EventLogSource source = EventLogReader.discover(file).get(0);
            assertEquals("zstd", source.codec());
            Outcome o = read(source);
            assertEquals(List.of(), o.problems());
            assertEquals(e.getValue(), o.taskEnds(), e.getKey());
            assertFalse(o.stats().truncated());
            assertTrue(o.stats().bytesRead() > 30_000_000, "uncompressed bytes " + o.stats().bytesRead());
        }
    }

    @Test
    void incompleteLogsLackApplicationEnd() throws Exception {
        for (String name : List.of("other/spark-rapids-tools/truncated_eventlog",
                "spark-events-broken/last-attempt-incomplete/application_1656321732247_0006_2",
                "spark-events-broken/previous-attempt-incomplete/application_1656321732247_0006_1")) {
            Outcome o = read(EventLogReader.discover(shared.resolve(name)).get(0));
            assertFalse(o.applicationEnd(), name);
            assertEquals(List.of(), o.problems(), name);
        }
        Outcome complete = read(EventLogReader.discover(
                shared.resolve("spark-events-broken/last-attempt-incomplete/application_1656321732247_0006_1")).get(0));
        assertTrue(complete.applicationEnd());
    }

    @Test
    void spark12LogsWithoutLogStart() throws Exception {
        Outcome o = read(EventLogReader.discover(shared.resolve("spark-events/local-1422981759269")).get(0));
        assertEquals(List.of(), o.problems());
        assertEquals(0, o.stats().skippedUnknown());
        assertTrue(o.taskEnds() > 0);
        assertTrue(o.applicationEnd());
    }
}
