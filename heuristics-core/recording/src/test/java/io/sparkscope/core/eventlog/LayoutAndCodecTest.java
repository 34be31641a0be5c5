package io.sparkscope.core.eventlog;

import com.github.luben.zstd.ZstdOutputStream;
import io.sparkscope.core.event.SparkEvent;
import net.jpountz.lz4.LZ4BlockOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.SnappyOutputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Codecs as Spark writes them, rolling logs, .inprogress, and folder discovery. */
class LayoutAndCodecTest {
    @TempDir
    Path dir;

    private static final List<String> APP = List.of(TestLogs.LOG_START, TestLogs.APP_START, TestLogs.taskStart(0, 1),
            TestLogs.taskEnd(0, 1), TestLogs.APP_END);

    private static OutputStream zstd(OutputStream out) {
        try {
            return new ZstdOutputStream(out); // Spark's ZStdCompressionCodec uses zstd-jni's ZstdOutputStream
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static OutputStream lz4(OutputStream out) {
        return new LZ4BlockOutputStream(out, 32 * 1024); // Spark's LZ4CompressionCodec, default 32k blocks
    }

    private static OutputStream snappy(OutputStream out) {
        return new SnappyOutputStream(out, 32 * 1024); // Spark's SnappyCompressionCodec
    }

    private void assertWholeApp(TestLogs.Result r) {
        assertEquals(List.of(), r.problems());
        assertEquals(5, r.stats().events());
        assertFalse(r.stats().truncated());
        assertEquals(1, r.of(SparkEvent.TaskEnd.class).size());
        assertEquals(new SparkEvent.ApplicationEnd(9000), r.events().get(4));
    }

    @Test
    void zstdLz4SnappyRoundTrip() throws Exception {
        Map<String, Function<OutputStream, OutputStream>> codecs = new LinkedHashMap<>();
        codecs.put("zstd", LayoutAndCodecTest::zstd);
        codecs.put("lz4", LayoutAndCodecTest::lz4);
        codecs.put("snappy", LayoutAndCodecTest::snappy);
        for (Map.Entry<String, Function<OutputStream, OutputStream>> codec : codecs.entrySet()) {
            Path file = TestLogs.write(dir.resolve("app-1." + codec.getKey()), APP, codec.getValue());
            EventLogSource source = EventLogReader.discover(file).get(0);
            assertEquals(codec.getKey(), source.codec());
            TestLogs.Result r = TestLogs.read(source);
            assertWholeApp(r);
            assertEquals(String.join("\n", APP).length() + 1, r.stats().bytesRead(), "uncompressed bytes");
        }
    }

    @Test
    void concatenatedStreamsAreReadToTheEnd() throws Exception {
        // A restarted writer, or Spark flushing frame by frame, leaves several zstd frames / lz4 streams back to back.
        for (String codec : List.of("zstd", "lz4")) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (List<String> half : List.of(APP.subList(0, 2), APP.subList(2, 5))) {
                ByteArrayOutputStream one = new ByteArrayOutputStream();
                try (OutputStream out = codec.equals("zstd") ? zstd(one) : lz4(one)) {
                    out.write((String.join("\n", half) + "\n").getBytes(StandardCharsets.UTF_8));
                }
                bytes.writeBytes(one.toByteArray());
            }
            Path file = Files.write(dir.resolve("concat." + codec), bytes.toByteArray());
            assertWholeApp(TestLogs.read(file));
        }
    }

    @Test
    void inProgressWithCodec() throws Exception {
        Path file = TestLogs.write(dir.resolve("app-2.zstd.inprogress"), APP.subList(0, 4), LayoutAndCodecTest::zstd);
        EventLogSource source = EventLogReader.discover(file).get(0);
        assertTrue(source.inProgress());
        assertEquals("zstd", source.codec());
        TestLogs.Result r = TestLogs.read(source);
        assertEquals(4, r.stats().events());
        assertEquals(List.of(), r.problems());
    }

    @Test
    void rollingLogReadsPartsInNumericOrder() throws Exception {
        Path rolling = Files.createDirectory(dir.resolve("eventlog_v2_app-3"));
        // parts 1, 2, 10: a name sort would put 10 before 2
        TestLogs.write(rolling.resolve("events_1_app-3.lz4"), APP.subList(0, 2), LayoutAndCodecTest::lz4);
        TestLogs.write(rolling.resolve("events_2_app-3.lz4"), APP.subList(2, 3), LayoutAndCodecTest::lz4);
        TestLogs.write(rolling.resolve("events_10_app-3.lz4"), APP.subList(3, 5), LayoutAndCodecTest::lz4);
        Files.writeString(rolling.resolve("appstatus_app-3"), "");
        Files.writeString(rolling.resolve(".events_1_app-3.lz4.crc"), "crc");

        List<EventLogSource> found = EventLogReader.discover(rolling);
        assertEquals(1, found.size());
        EventLogSource source = found.get(0);
        assertEquals(List.of("events_1_app-3.lz4", "events_2_app-3.lz4", "events_10_app-3.lz4"),
                source.parts().stream().map(p -> p.getFileName().toString()).toList());
        assertFalse(source.inProgress());
        assertTrue(source.rolling());
        TestLogs.Result r = TestLogs.read(source);
        // the gap in the numbering is named: those parts' events are missing
        assertEquals(List.of(rolling + ": rolling event log has no events_3 to events_9 files (between events_2 "
                + "and events_10); the events in them are missing"), r.problems());
        assertEquals(5, r.stats().events());
        assertEquals(new SparkEvent.ApplicationEnd(9000), r.events().get(4));
        assertEquals(5, r.stats().lines());

        Files.move(rolling.resolve("appstatus_app-3"), rolling.resolve("appstatus_app-3.inprogress"));
        assertTrue(EventLogReader.discover(rolling).get(0).inProgress());
    }

    @Test
    void rollingLogStartsAtLastCompactedPart() throws Exception {
        Path rolling = Files.createDirectory(dir.resolve("eventlog_v2_app-4"));
        TestLogs.write(rolling.resolve("events_1_app-4"), List.of(TestLogs.LOG_START));
        TestLogs.write(rolling.resolve("events_2_app-4.compact"), APP.subList(0, 3));
        TestLogs.write(rolling.resolve("events_3_app-4"), APP.subList(3, 5));
        Files.writeString(rolling.resolve("appstatus_app-4"), "");
        EventLogSource source = EventLogReader.discover(rolling).get(0);
        assertEquals(List.of("events_2_app-4.compact", "events_3_app-4"),
                source.parts().stream().map(p -> p.getFileName().toString()).toList());
        assertWholeApp(TestLogs.read(source));
    }

    @Test
    void folderDiscoveryIsSortedAndSkipsNonLogs() throws Exception {
        Path history = Files.createDirectory(dir.resolve("history"));
        TestLogs.write(history.resolve("b-app"), APP);
        TestLogs.write(history.resolve("a-app.zstd"), APP, LayoutAndCodecTest::zstd);
        TestLogs.write(history.resolve("c-app.inprogress"), APP.subList(0, 2));
        Path rolling = Files.createDirectory(history.resolve("eventlog_v2_app-9"));
        TestLogs.write(rolling.resolve("events_1_app-9"), APP);
        Files.writeString(rolling.resolve("appstatus_app-9.inprogress"), "");
        Files.writeString(history.resolve(".a-app.zstd.crc"), "x");
        Files.writeString(history.resolve("notes.csv"), "a,b\n1,2\n");
        Files.writeString(history.resolve("report.json"), "{\n  \"stages\": []\n}\n");
        Path nested = Files.createDirectories(history.resolve("2024/01"));
        TestLogs.write(nested.resolve("d-app"), APP);

        List<String> warnings = new ArrayList<>();
        List<EventLogSource> found = EventLogReader.discover(history, warnings::add);
        assertEquals(List.of("2024/01/d-app", "a-app.zstd", "b-app", "c-app.inprogress", "eventlog_v2_app-9"),
                found.stream().map(s -> history.relativize(s.path()).toString()).toList());
        assertTrue(found.get(3).inProgress());
        assertTrue(found.get(4).inProgress());
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("notes.csv") && warnings.get(0).contains("not an event log"), warnings.get(0));
        assertTrue(warnings.get(1).contains("report.json") && warnings.get(1).contains("\"Event\""), warnings.get(1));
        for (EventLogSource s : found) {
            TestLogs.Result r = TestLogs.read(s);
            assertEquals(List.of(), r.problems(), s.path().toString());
        }
    }
}
