package io.sparkscope.core.eventlog;

import com.github.luben.zstd.ZstdOutputStream;
import io.sparkscope.core.event.SparkEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input: each case gives a clear one-line message, no exception, and the rest is still read. */
class BadInputTest {
    @TempDir
    Path dir;

    private static void assertOneLine(List<String> problems) {
        for (String p : problems) {
            assertFalse(p.contains("\n"), "one line: " + p);
            assertFalse(p.contains("Exception:") || p.contains("\tat "), "no stack trace: " + p);
        }
    }

    @Test
    void missingPath() {
        Path missing = dir.resolve("nope");
        EventLogException e = assertThrows(EventLogException.class, () -> EventLogReader.discover(missing));
        assertEquals(missing + ": no such file or directory", e.getMessage());
    }

    @Test
    void directoryWithoutLogs() throws Exception {
        Files.writeString(dir.resolve("README.md"), "# not a log\n");
        Files.writeString(dir.resolve("x.crc"), "");
        EventLogException e = assertThrows(EventLogException.class, () -> EventLogReader.discover(dir, w -> { }));
        assertEquals(dir + ": no event logs in this directory (2 other files skipped)", e.getMessage());
        Path rolling = Files.createDirectory(dir.resolve("eventlog_v2_app-0"));
        e = assertThrows(EventLogException.class, () -> EventLogReader.discover(rolling));
        assertTrue(e.getMessage().startsWith(rolling + ": rolling event log directory without events_ files"));
    }

    @Test
    void aRollingPartNumberPastALongIsSkippedWithAWarning() throws Exception {
        Path rolling = Files.createDirectory(dir.resolve("eventlog_v2_app-9"));
        String huge = "events_99999999999999999999_app-9";
        Files.writeString(rolling.resolve(huge), TestLogs.LOG_START + "\n");
        Files.writeString(rolling.resolve("appstatus_app-9"), "");
        EventLogException e = assertThrows(EventLogException.class, () -> EventLogReader.discover(rolling));
        assertEquals(rolling + ": rolling event log directory without events_ files it can read: " + huge
                + " has a part number past 9223372036854775807, which no Spark writes", e.getMessage());
        // beside a good part it costs only itself
        TestLogs.write(rolling.resolve("events_1_app-9"), List.of(TestLogs.LOG_START, TestLogs.APP_START));
        List<String> warnings = new ArrayList<>();
        List<EventLogSource> found = EventLogReader.discover(rolling, warnings::add);
        assertEquals(List.of(rolling.resolve("events_1_app-9")), found.get(0).parts());
        assertEquals(List.of(rolling.resolve(huge) + ": part number past 9223372036854775807, which no Spark writes;"
                + " skipped"), warnings);
    }

    @Test
    void aMalformedSchedulerSettingIsNamedWithItsLineAndTheRestRead() throws Exception {
        String env = "{\"Event\":\"SparkListenerEnvironmentUpdate\",\"Spark Properties\":{"
                + "\"spark.openlineage.parentJobName\":\"orders_daily.load\","
                + "\"spark.openlineage.parentRunId\":\"{{ macros.OpenLineagePlugin.lineage_run_id(task_instance) }}\","
                + "\"spark.openlineage.rootParentJobName\":\"" + "x".repeat(5_000) + "\"},"
                + "\"JVM Information\":{},\"System Properties\":{},\"Classpath Entries\":{}}";
        Path file = TestLogs.write(dir.resolve("app-lineage"), List.of(TestLogs.LOG_START, TestLogs.APP_START, env,
                TestLogs.APP_END));
        TestLogs.Result r = TestLogs.read(file);
        assertOneLine(r.problems());
        assertEquals(2, r.problems().size(), r.problems().toString());
        assertTrue(r.problems().get(0).startsWith(file + ":3: SparkListenerEnvironmentUpdate:"
                + " spark.openlineage.parentRunId ignored: an unrendered template"), r.problems().get(0));
        assertTrue(r.problems().get(1).contains("spark.openlineage.rootParentJobName ignored: 5000 characters"),
                r.problems().get(1));
        assertFalse(r.problems().get(1).contains("x".repeat(41)), "the value is cut: " + r.problems().get(1));
        SparkEvent.EnvironmentUpdate e = r.events().stream().filter(SparkEvent.EnvironmentUpdate.class::isInstance)
                .map(SparkEvent.EnvironmentUpdate.class::cast).findFirst().orElseThrow();
        assertEquals("orders_daily.load", e.sparkProperties().get("spark.openlineage.parentJobName"),
                "the event is kept; only the job key reader skips the bad values");
    }

    @Test
    void emptyFile() throws Exception {
        Path file = Files.createFile(dir.resolve("app-empty"));
        TestLogs.Result r = TestLogs.read(EventLogReader.discover(file).get(0));
        assertEquals(List.of(file + ": empty file, no events"), r.problems());
        assertEquals(0, r.stats().events());
    }

    @Test
    void binaryGarbage() throws Exception {
        byte[] junk = new byte[100_000];
        new Random(7).nextBytes(junk);
        junk[0] = 0; // not accidentally a magic number
        Path file = Files.write(dir.resolve("app-garbage"), junk);
        TestLogs.Result r = TestLogs.read(file);
        assertEquals(1, r.problems().size(), r.problems().toString());
        assertTrue(r.problems().get(0).startsWith(file + ": binary data, not a JSON event log"), r.problems().get(0));
        // and in a folder it is skipped with a warning, next to a good log
        TestLogs.write(dir.resolve("app-good"), List.of(TestLogs.LOG_START));
        List<String> warnings = new java.util.ArrayList<>();
        List<EventLogSource> found = EventLogReader.discover(dir, warnings::add);
        assertEquals(List.of(dir.resolve("app-good")), found.stream().map(EventLogSource::path).toList());
        assertEquals(1, warnings.size());
    }

    @Test
    void textThatIsNotJsonReportsLinesAndSaysSo() throws Exception {
        Path file = Files.writeString(dir.resolve("notes.txt"), "hello\nworld\n");
        TestLogs.Result r = TestLogs.read(file);
        assertEquals(2, r.stats().malformedLines());
        assertTrue(r.problems().get(0).startsWith(file + ":1: malformed JSON"), r.problems().get(0));
        assertTrue(r.problems().get(2).contains("no Spark events found"), r.problems().get(2));
        assertOneLine(r.problems());
    }

    @Test
    void wrongCodecSuffix() throws Exception {
        Path text = TestLogs.write(dir.resolve("app-1.zstd"), List.of(TestLogs.LOG_START, TestLogs.APP_END));
        TestLogs.Result r = TestLogs.read(text);
        assertEquals(List.of(text + ": named .zstd but holds plain JSON data; reading it as such"), r.problems());
        assertEquals(2, r.stats().events(), "still read");

        Path junk = Files.writeString(dir.resolve("app-2.lz4"), "hello world, not lz4\n");
        r = TestLogs.read(junk);
        assertEquals(List.of(junk + ": named .lz4 but not lz4 data (starts with \"hello world, not lz4\"); skipped"),
                r.problems());

        // zstd bytes without a suffix are still recognised
        Path bare = TestLogs.write(dir.resolve("app-3"), List.of(TestLogs.LOG_START), out -> {
            try {
                return new ZstdOutputStream(out);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        r = TestLogs.read(bare);
        assertEquals(1, r.stats().events());
        assertEquals(List.of(bare + ": no codec suffix but the data is zstd-compressed; reading it as such"),
                r.problems());

        Path lzf = Files.write(dir.resolve("app-4.lzf"), new byte[]{'Z', 'V', 0, 0, 5, 'h', 'e', 'l', 'l', 'o'});
        r = TestLogs.read(lzf);
        assertTrue(r.problems().get(0).contains("lzf-compressed event logs are not supported"), r.problems().toString());
    }

    @Test
    void malformedLineIsReportedWithFileAndLineAndTheRestRead() throws Exception {
        Path file = TestLogs.write(dir.resolve("app-m"), List.of(TestLogs.LOG_START, TestLogs.APP_START,
                "", "{\"Event\":\"SparkListenerEnvironmentUpdate\",_\"JVM Information\":{}}",
                TestLogs.taskEnd(0, 1), TestLogs.APP_END));
        TestLogs.Result r = TestLogs.read(file);
        assertEquals(1, r.stats().malformedLines());
        assertEquals(1, r.problems().size());
        assertTrue(r.problems().get(0).startsWith(file + ":4: malformed JSON at column"), r.problems().get(0));
        assertEquals(4, r.stats().events());
        assertEquals(6, r.stats().lines());
        assertFalse(r.stats().truncated());
    }

    @Test
    void eventsMissingRequiredFieldsAreSkippedWithAReason() throws Exception {
        Path file = TestLogs.write(dir.resolve("app-f"), List.of(
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Type\":\"ResultTask\"}",
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Info\":{\"Index\":1}}",
                "{\"Event\":\"SparkListenerStageCompleted\"}",
                "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":1}",
                "{\"Stage ID\":1}",
                "[1,2]",
                // lenient where Spark is: no Task Type, no reason, no Stage Attempt ID
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Info\":{\"Task ID\":9}}"));
        TestLogs.Result r = TestLogs.read(file);
        assertEquals(List.of(
                file + ":1: SparkListenerTaskEnd without Task Info",
                file + ":2: Task Info without Task ID",
                file + ":3: SparkListenerStageCompleted without Stage Info",
                file + ":4: SparkListenerJobEnd without Job Result",
                file + ":5: JSON object without an \"Event\" field",
                file + ":6: not a JSON object"), r.problems());
        assertEquals(6, r.stats().malformedLines());
        SparkEvent.TaskEnd end = r.first(SparkEvent.TaskEnd.class);
        assertEquals(9, end.taskInfo().taskId());
        assertEquals("UnknownReason", end.reason().kind());
    }

    @Test
    void aTaskIndexPastItsStagesTaskCountIsSkippedOnceTheCountIsKnown() throws Exception {
        // TestLogs' task ends all have index 3. Stage 5's first end comes before its count is known and is read;
        // once the stage says it has 2 tasks, index 3 cannot be one of them (also for the next end of the same
        // stage, and again after another stage came in between); stage 6 has 4 tasks, so index 3 is read.
        Path file = TestLogs.write(dir.resolve("app-i"), List.of(TestLogs.LOG_START, TestLogs.APP_START,
                TestLogs.taskEnd(5, 1), RealisticLog.stageSubmitted(5, 2, List.of(), 1000), TestLogs.taskEnd(5, 2),
                TestLogs.taskEnd(5, 3), RealisticLog.stageSubmitted(6, 4, List.of(), 1000), TestLogs.taskEnd(6, 4), TestLogs.taskEnd(5, 5), TestLogs.APP_END));
        TestLogs.Result r = TestLogs.read(file);
        assertEquals(List.of(1L, 4L), r.of(SparkEvent.TaskEnd.class).stream().map(e -> e.taskInfo().taskId()).toList());
        assertEquals(3, r.problems().size(), String.join("\n", r.problems()));
        for (String line : List.of(":5:", ":6:", ":9:")) {
            assertTrue(r.problems().stream().anyMatch(p -> p.startsWith(file + line)
                    && p.contains("3 is not below the 2 tasks of stage 5 attempt 0")), line + " " + r.problems());
        }
        assertOneLine(r.problems());
    }

    @Test
    void truncatedLastLine() throws Exception {
        String text = TestLogs.LOG_START + "\n" + TestLogs.APP_START + "\n" + TestLogs.taskEnd(0, 1).substring(0, 300);
        Path file = Files.writeString(dir.resolve("app-t.inprogress"), text);
        TestLogs.Result r = TestLogs.read(file);
        assertTrue(r.stats().truncated());
        assertEquals(List.of(file + ":3: last line is cut off (no newline, incomplete JSON); the log ends early"),
                r.problems());
        assertEquals(2, r.stats().events());

        // a complete last line without newline is fine (Spark's local-1430917381535_1 ends like that)
        Path ok = Files.writeString(dir.resolve("app-ok"), TestLogs.LOG_START + "\n" + TestLogs.APP_END);
        r = TestLogs.read(ok);
        assertFalse(r.stats().truncated());
        assertEquals(2, r.stats().events());
        assertEquals(List.of(), r.problems());
    }

    @Test
    void truncatedZstdStream() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new ZstdOutputStream(bytes)) {
            for (int i = 0; i < 2000; i++) {
                out.write((TestLogs.taskEnd(0, i) + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        byte[] all = bytes.toByteArray();
        Path file = Files.write(dir.resolve("app-cut.zstd"), Arrays.copyOf(all, all.length * 2 / 3));
        TestLogs.Result r = TestLogs.read(file);
        assertTrue(r.stats().truncated());
        assertEquals(1, r.problems().size(), r.problems().toString());
        assertTrue(r.problems().get(0).startsWith(file + ": zstd data ends early or is corrupt after"),
                r.problems().get(0));
        assertTrue(r.stats().events() > 100, "what was there is read: " + r.stats().events());
        assertOneLine(r.problems());
    }

    @Test
    void overlongLineIsSkippedWithoutHoldingIt() throws Exception {
        StringBuilder big = new StringBuilder("{\"Event\":\"SparkListenerEnvironmentUpdate\",\"Spark Properties\":{");
        big.append("\"x\":\"").append("y".repeat(3_000_000)).append("\"}}");
        Path file = TestLogs.write(dir.resolve("app-big"), List.of(TestLogs.LOG_START, big.toString(),
                TestLogs.APP_END));
        TestLogs.Result r = TestLogs.read(EventLogSource.ofFile(file), 1 << 20);
        assertEquals(List.of(file + ":2: line of " + big.length() + " bytes is longer than the 1048576-byte limit "
                + "(sparkscope.eventlog.maxLineBytes); skipped"), r.problems());
        assertEquals(2, r.stats().events());
        assertEquals(1, r.stats().malformedLines());
        assertFalse(r.stats().truncated());
    }

    @Test
    void fiftyMegabyteStringIsCutToTheStringLimit() throws Exception {
        // a huge but valid EnvironmentUpdate (say, a classpath) is decoded with that one value cut to 1 MiB, so it
        // costs a few MiB of heap instead of several times its size, and the lines after it are read
        int size = 50 << 20;
        Path file = dir.resolve("app-50mb");
        long written = 0;
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write((TestLogs.LOG_START + "\n").getBytes(StandardCharsets.UTF_8));
            out.write("{\"Event\":\"SparkListenerEnvironmentUpdate\",\"System Properties\":{\"java.class.path\":\""
                    .getBytes(StandardCharsets.UTF_8));
            byte[] chunk = "/opt/spark/jars/x.jar:".repeat(1000).getBytes(StandardCharsets.UTF_8);
            for (; written < size; written += chunk.length) {
                out.write(chunk);
            }
            out.write("\",\"user.name\":\"alice\"}}\n".getBytes(StandardCharsets.UTF_8));
            out.write((TestLogs.APP_END + "\n").getBytes(StandardCharsets.UTF_8));
        }
        TestLogs.Result r = TestLogs.read(file);
        assertEquals(List.of(file + ":2: SparkListenerEnvironmentUpdate field \"java.class.path\": text of " + written
                + " bytes is longer than the 1048576-byte limit (sparkscope.eventlog.maxStringBytes); cut to 1048576 "
                + "bytes"), r.problems());
        assertEquals(3, r.stats().events());
        Map<String, String> props = r.first(SparkEvent.EnvironmentUpdate.class).systemProperties();
        String classpath = props.get("java.class.path");
        assertEquals(1 << 20, classpath.getBytes(StandardCharsets.UTF_8).length);
        assertTrue(classpath.startsWith("/opt/spark/jars/x.jar:/opt"), classpath.substring(0, 40));
        assertTrue(classpath.endsWith(LongStrings.MARKER));
        assertEquals("alice", props.get("user.name"), "the fields after the cut one are read");
        assertEquals(1, r.stats().invalidValues());
    }

    @Test
    void problemsAreCapped() throws Exception {
        Path file = Files.writeString(dir.resolve("app-many"), "nope\n".repeat(1000));
        TestLogs.Result r = TestLogs.read(file);
        assertEquals(1000, r.stats().malformedLines());
        assertEquals(EventLogReader.MAX_KEPT_PROBLEMS + 1, r.problems().size());
        assertTrue(r.problems().get(r.problems().size() - 1).endsWith("more problems not shown"));
    }
}
