package io.sparkscope.core.eventlog;

import com.github.luben.zstd.ZstdOutputStream;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.recorder.RecorderOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Values outside Spark's ranges are warned about (file:line, event, field) and never reach the recorder. */
class ValueValidationTest {
    private static final String APP = RealisticLog.APP_ID;

    @TempDir
    Path dir;

    /** The realistic log with line {@code index} (0-based) changed. */
    private Path logWith(String name, int index, UnaryOperator<String> change) throws IOException {
        List<String> lines = new ArrayList<>(RealisticLog.lines());
        lines.set(index, change.apply(lines.get(index)));
        return TestLogs.write(dir.resolve(name), lines);
    }

    private static int indexOf(String fragment) {
        List<String> lines = RealisticLog.lines();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(fragment)) {
                return i;
            }
        }
        throw new AssertionError("no line with " + fragment);
    }

    /** The 0-based line of task {@code taskId}'s end. */
    private static int taskEndLine(long taskId) {
        List<String> lines = RealisticLog.lines();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("{\"Event\":\"SparkListenerTaskEnd\"")
                    && lines.get(i).contains("\"Task Info\":{\"Task ID\":" + taskId + ",")) {
                return i;
            }
        }
        throw new AssertionError("no end of task " + taskId);
    }

    private static TaskInfo taskEnd(TestLogs.Result r, long taskId) {
        return r.of(SparkEvent.TaskEnd.class).stream().map(SparkEvent.TaskEnd::taskInfo)
                .filter(t -> t.taskId() == taskId).findFirst().orElseThrow();
    }

    @Test
    void theRealisticLogIsClean() throws Exception {
        Path file = TestLogs.write(dir.resolve(APP), RealisticLog.lines());
        TestLogs.Result r = TestLogs.read(file);
        assertEquals(List.of(), r.problems());
        assertEquals(0, r.stats().invalidValues());
        AppSnapshot s = EventLogAnalysis.analyze(EventLogSource.ofFile(file), RecorderOptions.DEFAULTS, p -> {
            throw new AssertionError(p);
        }).snapshot();
        assertEquals(APP, s.appId());
        assertEquals(2, s.stages().size());
        assertEquals(3_300 + 2_600 + 6_000, s.durationMs(), "the whole run, start to end");
    }

    @Test
    void negativeAndHugeIndexSkipTheTaskEndWithAWarning() throws Exception {
        int line = taskEndLine(2);
        Path file = logWith("neg", line, l -> l.replace("\"Index\":2,", "\"Index\":-1,"));
        TestLogs.Result r = TestLogs.read(file);
        assertEquals(List.of(file + ":" + (line + 1) + ": SparkListenerTaskEnd field \"Index\": -1 is negative; "
                + "treated as unknown, so the event is skipped"), r.problems());
        assertFalse(r.of(SparkEvent.TaskEnd.class).stream().anyMatch(e -> e.taskInfo().taskId() == 2));

        file = logWith("wrap", line, l -> l.replace("\"Index\":2,", "\"Index\":4294967298,"));
        r = TestLogs.read(file);
        assertEquals(List.of(file + ":" + (line + 1) + ": SparkListenerTaskEnd field \"Index\": 4294967298 is out of "
                + "range (0 to 2147483647); treated as unknown, so the event is skipped"), r.problems());

        // within int range but not below the stage's 4 tasks: Spark's task indices are 0..numTasks-1
        file = logWith("big", line, l -> l.replace("\"Index\":2,", "\"Index\":2147483647,"));
        r = TestLogs.read(file);
        assertEquals(List.of(file + ":" + (line + 1) + ": SparkListenerTaskEnd field \"Index\": 2147483647 is not "
                + "below the 4 tasks of stage 0 attempt 0; treated as unknown, so the event is skipped"), r.problems());
        // and analysis goes through (the recorder never sees the index)
        AppSnapshot s = EventLogAnalysis.analyze(EventLogSource.ofFile(file), RecorderOptions.DEFAULTS, p -> { })
                .snapshot();
        assertEquals(3, s.stages().get(0).numCompleteTasks());
    }

    @Test
    void aBadLaunchTimeIsTakenFromTheTaskStartOrLeftUnknown() throws Exception {
        int line = taskEndLine(2);
        long launch = RealisticLog.T0 + 3_300 + 901;
        for (String bad : List.of("null", "0", "\"x\"", "-5", "NaN", "1.5", "99999999999999999")) {
            Path file = logWith("launch", line, l -> l.replace("\"Launch Time\":" + launch + ",",
                    "\"Launch Time\":" + bad + ","));
            TestLogs.Result r = TestLogs.read(file);
            assertEquals(1, r.problems().size(), bad + ": " + r.problems());
            String p = r.problems().get(0);
            assertTrue(p.startsWith(file + ":" + (line + 1) + ": SparkListenerTaskEnd field \"Launch Time\": "), p);
            assertTrue(p.endsWith("; treated as unknown, the launch time of its task start (" + launch + ") is used"), p);
            assertEquals(launch, taskEnd(r, 2).launchTime(), bad);
            assertEquals(800 - 1, taskEnd(r, 2).duration());
        }
        // without the task start there is nothing to take it from: both times unknown, duration 0, not 50 years
        List<String> lines = new ArrayList<>(RealisticLog.lines());
        int start = indexOf("\"Task Info\":{\"Task ID\":2,\"Index\":2,\"Attempt\":0,\"Partition ID\":2,\"Launch Time\":"
                + launch + ",\"Executor ID\":\"1\",\"Host\":\"10.0.0.2\",\"Locality\":\"PROCESS_LOCAL\","
                + "\"Speculative\":false,\"Getting Result Time\":0,\"Finish Time\":0");
        lines.set(line, lines.get(line).replace("\"Launch Time\":" + launch + ",", "\"Launch Time\":0,"));
        lines.remove(start);
        Path file = TestLogs.write(dir.resolve("nostart"), lines);
        TestLogs.Result r = TestLogs.read(file);
        assertEquals(List.of(file + ":" + line + ": SparkListenerTaskEnd field \"Launch Time\": 0 is not a time; "
                + "treated as unknown and so is the finish time (a duration needs both)"), r.problems());
        TaskInfo info = taskEnd(r, 2);
        assertEquals(-1, info.launchTime());
        assertEquals(0, info.finishTime());
        assertEquals(0, info.gettingResultTime(), "no getting-result time without a finish");
        assertEquals(0, info.duration());
        AppSnapshot s = EventLogAnalysis.analyze(EventLogSource.ofFile(file), RecorderOptions.DEFAULTS, p -> { })
                .snapshot();
        StageSummary stage = s.stages().get(0);
        assertEquals(4, stage.numCompleteTasks(), "the task still counts");
        assertTrue(stage.taskTimes().durationMs() < 10_000, "no 443 338-hour task: " + stage.taskTimes());
    }

    @Test
    void finishBeforeLaunchNeverGivesANegativeDuration() throws Exception {
        int line = taskEndLine(4);
        long launch = RealisticLog.T0 + 3_300 + 1_701;
        Path file = logWith("early", line, l -> l.replace("\"Launch Time\":" + launch + ",",
                "\"Launch Time\":" + (launch + 10_000) + ","));
        TestLogs.Result r = TestLogs.read(file);
        assertEquals(List.of(file + ":" + (line + 1) + ": SparkListenerTaskEnd field \"Launch Time\": "
                + (launch + 10_000) + " is after the finish time " + (RealisticLog.T0 + 3_300 + 2_400)
                + "; treated as unknown, the launch time of its task start (" + launch + ") is used"), r.problems());
        assertEquals(699, taskEnd(r, 4).duration());
    }

    @Test
    void nanAndNegativeMetricsAreWarnedAndNeverPassed() throws Exception {
        int line = taskEndLine(0);
        Path file = logWith("nan", line, l -> l.replace("\"Executor Run Time\":840,", "\"Executor Run Time\":NaN,")
                .replace("\"JVM GC Time\":42,", "\"JVM GC Time\":-42,")
                .replace("\"Result Size\":2000,", "\"Result Size\":Infinity,"));
        TestLogs.Result r = TestLogs.read(file);
        String at = file + ":" + (line + 1) + ": SparkListenerTaskEnd field ";
        assertEquals(List.of(at + "\"Executor Run Time\": NaN is not a number; treated as unknown (0, as for a "
                        + "metric the log does not carry)",
                at + "\"Result Size\": Infinity is not a number; treated as unknown (0, as for a metric the log does "
                        + "not carry)",
                at + "\"JVM GC Time\": -42 is negative; treated as unknown (0, as for a metric the log does not "
                        + "carry)"), r.problems());
        SparkEvent.TaskEnd end = r.of(SparkEvent.TaskEnd.class).get(0);
        assertEquals(0, end.metrics().get(TaskMetric.EXECUTOR_RUN_TIME));
        assertEquals(0, end.metrics().get(TaskMetric.JVM_GC_TIME));
        assertEquals(20, end.metrics().get(TaskMetric.EXECUTOR_DESERIALIZE_TIME), "the rest is read");
    }

    @Test
    void stageJobAndApplicationEndsBeforeTheirStartsAreUnknown() throws Exception {
        List<String> lines = new ArrayList<>(RealisticLog.lines());
        int appEnd = lines.size() - 1;
        lines.set(appEnd, "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":" + (RealisticLog.T0 - 1) + "}");
        int stageDone = indexOf("\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":1");
        long submitted = RealisticLog.T0 + 3_300 + 2_500;
        lines.set(stageDone, RealisticLog.stageCompleted(1, 4, List.of(0), submitted, submitted - 100));
        int jobEnd = indexOf("\"Event\":\"SparkListenerJobEnd\"");
        lines.set(jobEnd, "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":" + RealisticLog.T0
                + ",\"Job Result\":{\"Result\":\"JobSucceeded\"}}");
        Path file = TestLogs.write(dir.resolve(APP + "_1"), lines);
        TestLogs.Result r = TestLogs.read(file);
        assertEquals(List.of(
                file + ":" + (stageDone + 1) + ": SparkListenerStageCompleted field \"Completion Time\": "
                        + (submitted - 100) + " is before the submission time " + submitted + "; treated as unknown",
                file + ":" + (jobEnd + 1) + ": SparkListenerJobEnd field \"Completion Time\": " + RealisticLog.T0
                        + " is before the submission time " + (RealisticLog.T0 + 3_100) + "; treated as unknown",
                file + ":" + (appEnd + 1) + ": SparkListenerApplicationEnd field \"Timestamp\": "
                        + (RealisticLog.T0 - 1) + " is before the application's start " + RealisticLog.T0
                        + "; treated as unknown"), r.problems());
        AppSnapshot s = EventLogAnalysis.analyze(EventLogSource.ofFile(file), RecorderOptions.DEFAULTS, p -> { })
                .snapshot();
        assertTrue(s.complete());
        assertEquals(-1, s.endTime());
        assertTrue(s.durationMs() > 0, "from the last event instead of 'duration 0 ms': " + s.durationMs());
        assertEquals(0, s.jobs().get(0).durationMs());
        assertEquals(-1, s.stages().get(1).completionTime());
    }

    @Test
    void absurdCoreCountsAndSizesAreUnknown() throws Exception {
        int line = indexOf("\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":" + (RealisticLog.T0 + 2_000));
        for (String cores : List.of("200000000", "1073741824", "0", "-2", "\"8\"")) {
            Path file = logWith("cores", line, l -> l.replace("\"Total Cores\":2,", "\"Total Cores\":" + cores + ","));
            TestLogs.Result r = TestLogs.read(file);
            assertEquals(1, r.problems().size(), r.problems().toString());
            assertTrue(r.problems().get(0).startsWith(file + ":" + (line + 1)
                    + ": SparkListenerExecutorAdded field \"Total Cores\": "), r.problems().get(0));
            assertTrue(r.problems().get(0).endsWith("; treated as unknown (0, the executor's core count is not known)"));
            assertEquals(0, r.first(SparkEvent.ExecutorAdded.class).totalCores());
        }
        int bm = indexOf("\"Executor ID\":\"1\",\"Host\":\"10.0.0.2\",\"Port\":40001");
        Path file = logWith("mem", bm, l -> l.replace("\"Maximum Memory\":2101975449", "\"Maximum Memory\":-7"));
        TestLogs.Result r = TestLogs.read(file);
        assertEquals(List.of(file + ":" + (bm + 1) + ": SparkListenerBlockManagerAdded field \"Maximum Memory\": -7 "
                + "is negative; treated as unknown"), r.problems());
        assertEquals(-1, r.of(SparkEvent.BlockManagerAdded.class).get(1).maxMemory());
    }

    @Test
    void aMissingAppIdIsTakenFromTheFileNameAsSparkNamesLogs() throws Exception {
        int line = indexOf("SparkListenerApplicationStart");
        UnaryOperator<String> noId = l -> l.replace("\"App ID\":\"" + APP + "\",", "");
        for (String name : List.of(APP + "_1", APP + "_1.zstd.inprogress", "eventlog_v2_" + APP + "_1")) {
            Path log;
            if (name.startsWith("eventlog_v2_")) {
                Path rolling = Files.createDirectory(dir.resolve(name));
                List<String> lines = new ArrayList<>(RealisticLog.lines());
                lines.set(line, noId.apply(lines.get(line)));
                TestLogs.write(rolling.resolve("events_1_" + APP + "_1"), lines);
                Files.writeString(rolling.resolve("appstatus_" + APP + "_1"), "");
                log = rolling;
            } else {
                log = logWith(name, line, noId);
                if (name.contains(".zstd")) {
                    byte[] plain = Files.readAllBytes(log);
                    try (OutputStream out = new ZstdOutputStream(Files.newOutputStream(log))) {
                        out.write(plain);
                    }
                }
            }
            List<String> problems = new ArrayList<>();
            AppSnapshot s = EventLogAnalysis.analyze(EventLogReader.discover(log).get(0), RecorderOptions.DEFAULTS,
                    problems::add).snapshot();
            assertEquals(APP, s.appId(), name);
            assertEquals("1", s.attemptId());
            assertEquals(1, problems.size(), problems.toString());
            assertTrue(problems.get(0).endsWith("SparkListenerApplicationStart field \"App ID\": missing; treated as "
                    + "unknown, the id \"" + APP + "\" is taken from the log's name \"" + name + "\""), problems.get(0));
        }
        // a name that holds no Spark id still gives a stable id, and says so
        Path odd = logWith("good.log", line, l -> l.replace("\"App ID\":\"" + APP + "\"", "\"App ID\":42"));
        List<String> problems = new ArrayList<>();
        AppSnapshot s = EventLogAnalysis.analyze(EventLogSource.ofFile(odd), RecorderOptions.DEFAULTS, problems::add)
                .snapshot();
        assertEquals("file-good.log", s.appId());
        assertEquals(List.of(odd + ":" + (line + 1) + ": SparkListenerApplicationStart field \"App ID\": 42 is not a "
                + "text; treated as unknown, the id \"file-good.log\" is made from the log's name \"good.log\" (not a "
                + "Spark application id: the name does not hold one)"), problems);
    }

    @Test
    void aLogWithoutApplicationStartKeepsItsApplication() throws Exception {
        List<String> lines = new ArrayList<>(RealisticLog.lines());
        lines.remove(indexOf("SparkListenerApplicationStart"));
        Path file = TestLogs.write(dir.resolve("app-20240101120000-0007"), lines);
        List<String> problems = new ArrayList<>();
        EventLogAnalysis.Result r = EventLogAnalysis.analyze(EventLogSource.ofFile(file), RecorderOptions.DEFAULTS,
                problems::add);
        assertEquals(List.of(file + ": no SparkListenerApplicationStart event; the application id "
                + "\"app-20240101120000-0007\" is taken from the log's name, its start time is unknown"), problems);
        assertTrue(r.hasApplication());
        assertEquals("app-20240101120000-0007", r.snapshot().appId());
        assertEquals(8, r.snapshot().stages().get(0).numCompleteTasks() + r.snapshot().stages().get(1)
                .numCompleteTasks(), "its work is all there");
    }

    @Test
    void invalidUtf8IsReplacedNotFatal() throws Exception {
        byte[] good = (String.join("\n", RealisticLog.lines()) + "\n").getBytes(StandardCharsets.UTF_8);
        String marker = "insert into sales_daily\",\"details\"";
        int at = new String(good, StandardCharsets.ISO_8859_1).indexOf(marker);
        good[at + 2] = (byte) 0xC3; // a lead byte followed by ASCII: invalid
        good[at + 3] = (byte) 0xFF; // never valid in UTF-8
        Path file = Files.write(dir.resolve("utf8"), good);
        TestLogs.Result r = TestLogs.read(file);
        int line = indexOf("SparkListenerSQLExecutionStart") + 1;
        assertEquals(List.of(file + ":" + line + ": invalid UTF-8 bytes replaced with U+FFFD (the file is damaged)"),
                r.problems());
        assertEquals("in\uFFFD\uFFFDrt into sales_daily", r.first(SparkEvent.SqlExecutionStart.class).description());
        // a line too long to copy gets '?' in place
        byte[] big = new byte[(5 << 20) + 100];
        byte[] head = "{\"Event\":\"X\",\"v\":\"".getBytes(StandardCharsets.UTF_8);
        System.arraycopy(head, 0, big, 0, head.length);
        java.util.Arrays.fill(big, head.length, big.length - 2, (byte) 'a');
        big[head.length + 10] = (byte) 0xE9;
        big[big.length - 2] = '"';
        big[big.length - 1] = '}';
        assertEquals('?', LogRead.replaceInvalidUtf8(big, 0, big.length)[head.length + 10]);
    }

    @Test
    void aDecompressionBombStopsAtTheLimitWithAClearMessage() throws Exception {
        Path file = dir.resolve("app-bomb.zstd");
        byte[] spaces = new byte[1 << 20];
        java.util.Arrays.fill(spaces, (byte) ' ');
        try (OutputStream out = new ZstdOutputStream(Files.newOutputStream(file))) {
            out.write((RealisticLog.lines().get(0) + "\n{\"Event\":\"SparkListenerLogStart\",\"x\":\"")
                    .getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < 160; i++) { // 160 MiB from a file of a few KiB
                out.write(spaces);
            }
            out.write("\"}\n".getBytes(StandardCharsets.UTF_8));
        }
        long size = Files.size(file);
        assertTrue(size < 100_000, "a bomb: " + size);
        List<String> problems = new ArrayList<>();
        long t0 = System.nanoTime();
        ReadStats stats = new LogRead(e -> { }, problems::add, 1 << 20, ReaderLimits.DEFAULTS, false)
                .run(EventLogSource.ofFile(file));
        assertTrue(stats.truncated());
        String last = problems.get(problems.size() - 1);
        assertTrue(last.startsWith(file + ": decompressed data passes 67108864 bytes ("), last);
        assertTrue(last.endsWith(" x its compressed size); stopped reading, the rest of the file is not read (zstd data;"
                + " the limits: 100 x past the first 64 MiB, 32 GiB in all; sparkscope.eventlog.maxExpansionRatio,"
                + " sparkscope.eventlog.maxDecompressedBytes)"), last);
        assertTrue(stats.bytesRead() <= (64 << 20) + 1, "stopped at the limit: " + stats.bytesRead());
        assertNotNull(t0);
    }

    @Test
    void anEventTooBigAsATreeIsSkippedWithItsLimit() throws Exception {
        int line = indexOf("SparkListenerSQLExecutionStart");
        Path file = logWith("flood", line, l -> l.replace("\"modifiedConfigs\":{}",
                "\"modifiedConfigs\":[" + "{},".repeat(EventDecoder.MAX_TREE_TOKENS) + "{}]"));
        TestLogs.Result r = TestLogs.read(file);
        assertEquals(List.of(file + ":" + (line + 1) + ": SparkListenerSQLExecutionStart holds more than 2000000 JSON "
                + "values, the limit for an event read whole; skipped"), r.problems());
        assertEquals(RealisticLog.lines().size() - 1, r.events().size(), "the rest is read");
    }

    @Test
    void aLinkLoopAndTwoLinksToOneLogReadItOnce() throws Exception {
        Path logs = Files.createDirectory(dir.resolve("logs"));
        TestLogs.write(logs.resolve(APP), RealisticLog.lines());
        Files.createSymbolicLink(logs.resolve("loop"), logs);
        Files.createSymbolicLink(logs.resolve("same-app"), logs.resolve(APP));
        List<String> warnings = new ArrayList<>();
        List<EventLogSource> found = EventLogReader.discover(logs, warnings::add);
        assertEquals(List.of(logs.resolve(APP)), found.stream().map(EventLogSource::path).toList(), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith(logs.resolve("loop")
                + ": a link to a directory already searched")), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith(logs.resolve("same-app") + ": the same log as ")),
                warnings.toString());
    }

    @Test
    void aRollingLogMissingItsFirstPartSaysSo() throws Exception {
        Path rolling = Files.createDirectory(dir.resolve("eventlog_v2_" + APP));
        List<String> lines = RealisticLog.lines();
        TestLogs.write(rolling.resolve("events_2_" + APP), lines.subList(20, lines.size()));
        Files.writeString(rolling.resolve("appstatus_" + APP), "");
        TestLogs.Result r = TestLogs.read(EventLogReader.discover(rolling).get(0));
        assertEquals(rolling + ": rolling event log has no events_1 file (its first part is events_2); the events in "
                + "it are missing", r.problems().get(0));
    }

    @Test
    void oneBadLogAmongGoodOnesStopsNothing() throws Exception {
        Path good = TestLogs.write(dir.resolve("good.log"), RealisticLog.lines());
        Path bad = Files.write(dir.resolve("bad.log"), new byte[]{'{', 0, (byte) 0xFF, '\n'});
        Path good2 = TestLogs.write(dir.resolve("good2.log"), RealisticLog.lines());
        List<String> problems = new ArrayList<>();
        List<AppSnapshot> analysed = new ArrayList<>();
        for (Path p : List.of(good, bad, good2)) {
            EventLogAnalysis.Result r = EventLogAnalysis.analyze(EventLogSource.ofFile(p), RecorderOptions.DEFAULTS,
                    problems::add);
            if (r.hasApplication()) {
                analysed.add(r.snapshot());
            }
        }
        assertEquals(2, analysed.size(), problems.toString());
        // a consumer that throws costs its event, not the log
        List<String> more = new ArrayList<>();
        int[] seen = {0};
        ReadStats stats = EventLogReader.readContained(EventLogSource.ofFile(good), e -> {
            seen[0]++;
            if (e instanceof SparkEvent.TaskEnd) {
                throw new IndexOutOfBoundsException("Index -1 out of bounds for length 64");
            }
        }, more::add);
        assertEquals(10, stats.sinkFailures());
        assertEquals(RealisticLog.lines().size(), seen[0], "every event still offered");
        assertTrue(more.get(0).matches(java.util.regex.Pattern.quote(good.toString())
                + ":\\d+: SparkListenerTaskEnd could not be applied \\(IndexOutOfBoundsException: Index -1 out of "
                + "bounds for length 64\\); that event is skipped"), more.get(0));
    }
}
