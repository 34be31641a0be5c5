package io.sparkscope.core.eventlog;

import com.github.luben.zstd.ZstdOutputStream;
import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.report.SnapshotJson;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.core.testing.SharedData;
import io.sparkscope.core.testing.SyntheticLog;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lines parsed on several threads and settled in order give what one thread gives: the same events in the same
 * order, the same warnings with the same file and line numbers, the same counters and the same snapshot, whatever
 * the batches' size; and no decoding thread outlives its read.
 */
class ParallelDecodingTest {
    private static final SyntheticLog LOG = new SyntheticLog("app-20261205-0001", "parallel", 1_764_000_000_000L, 6, 300);
    private static final double[] QUANTILES = {0.05, 0.25, 0.5, 0.75, 0.95};

    /**
     * Everything a read gives that a caller can see: the events (a digest of all, the first few as text), the
     * problems, the counters and the snapshot with its findings as {@code analyze --json} writes them.
     */
    private record Outcome(String eventDigest, List<String> firstEvents, List<String> problems, ReadStats stats,
                           String snapshot) {
    }

    private static Outcome read(EventLogSource source, int threads, int batchBytes) {
        Recorder recorder = new Recorder(RecorderOptions.DEFAULTS);
        List<String> events = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Thread caller = Thread.currentThread();
        MessageDigest digest = sha256();
        ReadStats stats = new LogRead(e -> {
            // the recorder is never called from another thread
            assertEquals(caller, Thread.currentThread());
            String text = render(e);
            digest.update((text + "\n").getBytes(StandardCharsets.UTF_8));
            if (events.size() < 5_000) {
                events.add(text);
            }
            recorder.onEvent(e);
        }, problems::add, 4 << 20, ReaderLimits.DEFAULTS, true, threads, batchBytes).run(source);
        AppSnapshot snapshot = recorder.snapshot();
        String json = SnapshotJson.toJson(SnapshotJson.toMap(snapshot, QUANTILES,
                Diagnoser.defaults().diagnose(snapshot), true));
        return new Outcome(HexFormat.of().formatHex(digest.digest()), events, problems, stats, json);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An event as text, arrays by content (records print arrays by identity). */
    private static String render(SparkEvent e) {
        String text = e.toString().replaceAll("\\[[A-Z]@[0-9a-f]+", "[]");
        if (e instanceof SparkEvent.TaskEnd t) {
            text += Arrays.toString(t.accumUpdates().ids()) + Arrays.toString(t.accumUpdates().values());
        }
        return text;
    }

    private static void assertSameAsOneThread(EventLogSource source) {
        assertSameAsOneThread(source, 1, 4 << 10, 64 << 10);
    }

    private static void assertSameAsOneThread(EventLogSource source, int... batchSizes) {
        Outcome one = read(source, 1, 1 << 20);
        for (int batch : batchSizes) {
            Outcome four = read(source, 4, batch);
            String what = source.path() + " with 4 threads and batches of " + batch + " bytes";
            assertEquals(one.firstEvents(), four.firstEvents(), what);
            assertEquals(one.eventDigest(), four.eventDigest(), what);
            assertEquals(one.problems(), four.problems(), what);
            assertEquals(one.stats(), four.stats(), what);
            assertEquals(one.snapshot(), four.snapshot(), what);
        }
        assertNoDecodingThreads();
    }

    private static void assertNoDecodingThreads() {
        Set<String> left = Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("sparkscope-decode-")).collect(Collectors.toSet());
        assertEquals(Set.of(), left, "decoding threads still running after the read");
    }

    @Test
    void aSyntheticLogPlainCompressedAndRolling(@TempDir Path dir) throws Exception {
        Path plain = dir.resolve(LOG.appId());
        LOG.writeTo(plain);
        Path zstd = dir.resolve("z").resolve(LOG.appId() + ".zstd");
        LOG.writeTo(zstd, out -> {
            try {
                return new ZstdOutputStream(out);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Path rolling = LOG.writeRolling(dir.resolve("r"), 700);
        for (Path p : List.of(plain, zstd, rolling)) {
            assertSameAsOneThread(EventLogReader.discover(p).get(0));
        }
    }

    @Test
    void badLinesKeepTheirWarningsAndLineNumbers(@TempDir Path dir) throws Exception {
        List<String> lines = new ArrayList<>(Arrays.asList(
                Files.readString(writePlain(dir)).split("\n")));
        // a garbage line, broken JSON, a task whose stage is unknown, an invalid time, a string cut, an over-long line
        lines.add(40, "this is not json");
        lines.add(90, "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":");
        lines.add(130, "{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":-3,\"Task Info\":{\"Task ID\":1}}");
        lines.set(200, lines.get(200).replaceFirst("\"Launch Time\":\\d+", "\"Launch Time\":-5"));
        // a 2 MiB string (cut to 1 MiB with a warning) and a 5 MiB line (over the 4 MiB line cap: skipped)
        lines.add(300, "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"" + "x".repeat(2 << 20) + "\"}");
        lines.add(310, "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":1,\"Job Result\":{\"Result\":"
                + "\"JobSucceeded\"},\"Note\":\"" + "y".repeat(5 << 20) + "\"}");
        Path bad = dir.resolve("bad").resolve(LOG.appId());
        Files.createDirectories(bad.getParent());
        byte[] text = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        // an invalid UTF-8 byte inside a string, and a last line cut off
        byte[] cut = "{\"Event\":\"SparkListenerTaskE".getBytes(StandardCharsets.UTF_8);
        byte[] damaged = Arrays.copyOf(text, text.length + cut.length);
        int at = new String(text, StandardCharsets.ISO_8859_1).indexOf("\"Host\":\"", 200_000) + 9;
        damaged[at] = (byte) 0xC3;
        System.arraycopy(cut, 0, damaged, text.length, cut.length);
        Files.write(bad, damaged);
        EventLogSource source = EventLogReader.discover(bad).get(0);
        Outcome one = read(source, 1, 1 << 20);
        assertTrue(one.problems().size() >= 6, one.problems().toString());
        assertTrue(one.problems().stream().anyMatch(p -> p.contains(":41: ")), one.problems().toString());
        assertSameAsOneThread(source);
    }

    @Test
    void sqlMetricUpdatesArePickedAsTheLogRuns(@TempDir Path dir) throws Exception {
        // task ends before, during and after a SQL execution declaring metric 7 (and a re-plan adding 8): only
        // updates of running metrics count, and a non-integer update of a running one is warned about
        List<String> lines = new ArrayList<>();
        lines.add("{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"sql\",\"App ID\":\"app-20261205-0002\","
                + "\"Timestamp\":1764000000000,\"User\":\"u\"}");
        lines.add("{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":{\"Stage ID\":0,\"Stage Attempt ID\":0,"
                + "\"Stage Name\":\"s\",\"Number of Tasks\":100000,\"Submission Time\":1764000000001}}");
        long task = 0;
        for (int round = 0; round < 4; round++) {
            if (round == 1) {
                lines.add("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\","
                        + "\"executionId\":1,\"description\":\"q\",\"details\":\"\",\"physicalPlanDescription\":\"\","
                        + "\"sparkPlanInfo\":{\"nodeName\":\"Scan\",\"simpleString\":\"Scan\",\"children\":[],"
                        + "\"metadata\":{},\"metrics\":[{\"name\":\"rows\",\"accumulatorId\":7,\"metricType\":\"sum\"}]},"
                        + "\"time\":1764000000002}");
            }
            if (round == 2) {
                lines.add("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate\","
                        + "\"executionId\":1,\"physicalPlanDescription\":\"\",\"sparkPlanInfo\":{\"nodeName\":\"Scan\","
                        + "\"simpleString\":\"Scan\",\"children\":[],\"metadata\":{},\"metrics\":[{\"name\":\"b\","
                        + "\"accumulatorId\":8,\"metricType\":\"sum\"}]}}");
            }
            if (round == 3) {
                lines.add("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd\","
                        + "\"executionId\":1,\"time\":1764000009000}");
            }
            for (int i = 0; i < 200; i++, task++) {
                String accumulables = "[{\"ID\":7,\"Name\":\"rows\",\"Update\":" + (i % 20 == 0 ? "\"x" + i + "\"" : i)
                        + ",\"Value\":1},{\"Update\":\"" + i + "\",\"ID\":8},{\"ID\":9,\"Update\":3},{\"ID\":\"7\","
                        + "\"Update\":\"bad\"},5,{\"Name\":\"n\"}]";
                lines.add("{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Stage Attempt ID\":0,\"Task Type\":"
                        + "\"ResultTask\",\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Info\":{\"Task ID\":" + task
                        + ",\"Index\":" + task + ",\"Attempt\":0,\"Launch Time\":1764000000010,\"Executor ID\":\"1\","
                        + "\"Host\":\"h\",\"Locality\":\"PROCESS_LOCAL\",\"Speculative\":false,\"Getting Result Time\":0,"
                        // now and then an invalid partition id: its warning comes before the accumulables'
                        + "\"Finish Time\":1764000000020,\"Failed\":false,\"Killed\":false,"
                        + (i % 50 == 0 ? "\"Partition ID\":-7," : "")
                        + "\"Accumulables\":" + accumulables + "},\"Task Metrics\":{\"Executor Run Time\":5}}");
            }
        }
        Path log = dir.resolve("app-20261205-0002");
        Files.writeString(log, String.join("\n", lines) + "\n");
        EventLogSource source = EventLogReader.discover(log).get(0);
        Outcome one = read(source, 1, 1 << 20);
        assertTrue(one.problems().stream().anyMatch(p -> p.contains("SQL metric update \"x20\" is not an integer")),
                one.problems().toString());
        assertTrue(one.firstEvents().stream().anyMatch(e -> e.endsWith("[7, 8][2, 2]")), "updates of 7 and 8 kept");
        assertSameAsOneThread(source);
    }

    @Test
    void theExamplesLogs() throws Exception {
        for (EventLogSource source : EventLogReader.discover(ExampleEventLogs.DIR)) {
            assertSameAsOneThread(source);
        }
    }

    @Test
    void everySharedThirdPartyLog() throws Exception {
        Path shared = SharedData.eventLogs().orElse(null);
        Assumptions.assumeTrue(shared != null,
                "third-party event logs (../shared/eventlogs, or SPARKSCOPE_SHARED) not found: skipped");
        List<EventLogSource> sources = EventLogReader.discover(shared, w -> { });
        assertFalse(sources.isEmpty());
        for (EventLogSource source : sources) {
            assertSameAsOneThread(source, 64 << 10);
        }
    }

    @Test
    void aFailingDecodingThreadSurfacesAsOneClearErrorAndStopsTheThreads() {
        AtomicInteger applied = new AtomicInteger();
        IllegalStateException e;
        try (OrderedWork<Integer> work = new OrderedWork<>(3, 4, 1 << 20)) {
            e = assertThrows(IllegalStateException.class, () -> {
                for (int i = 0; i < 50; i++) {
                    int n = i;
                    work.submit(() -> {
                        if (n == 7) {
                            throw new IllegalArgumentException("line 7 broke the decoder");
                        }
                        return n;
                    }, 1, applied::addAndGet);
                }
                work.drain();
            });
        }
        assertEquals("event decoding failed on a decoding thread: IllegalArgumentException: line 7 broke the decoder",
                e.getMessage());
        assertEquals(0 + 1 + 2 + 3 + 4 + 5 + 6, applied.get(), "the pieces before the failing one, in order, and none after");
        assertNoDecodingThreads();
        // an Error (the heap running out) comes through as itself
        try (OrderedWork<Integer> work = new OrderedWork<>(2, 2, 1 << 20)) {
            work.submit(() -> {
                throw new OutOfMemoryError("Java heap space");
            }, 1, x -> { });
            assertThrows(OutOfMemoryError.class, work::drain);
        }
        assertNoDecodingThreads();
    }

    private static Path writePlain(Path dir) throws IOException {
        Path p = dir.resolve("plain").resolve(LOG.appId());
        LOG.writeTo(p);
        return p;
    }
}
