package io.sparkscope.core.eventlog;

import com.github.luben.zstd.ZstdOutputStream;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.SyntheticLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A log read as it grows gives exactly what one read of the finished log gives, and nothing twice. */
class EventLogTailTest {
    private static final SyntheticLog LOG = new SyntheticLog("app-20261201-0001", "growing", 1_764_000_000_000L, 5, 60);

    private static AppSnapshot whole(Path log) throws Exception {
        return EventLogAnalysis.analyze(EventLogReader.discover(log).get(0), RecorderOptions.DEFAULTS, p -> { })
                .snapshot();
    }

    private static byte[] bytes(SyntheticLog log) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        log.writeTo(out, Long.MAX_VALUE);
        return out.toByteArray();
    }

    @Test
    void aPlainInProgressFileReadInCutsEqualsOneRead(@TempDir Path dir) throws Exception {
        byte[] all = bytes(LOG);
        Path growing = dir.resolve(LOG.appId() + ".inprogress");
        Recorder recorder = new Recorder();
        List<SparkEvent> seen = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        EventLogTail tail = new EventLogTail(e -> {
            seen.add(e);
            recorder.onEvent(e);
        }, problems::add);
        int written = 0;
        // cuts in the middle of lines, as a driver's buffer flushes them
        for (int cut : new int[]{1, 700, 5_000, 5_001, 90_000, 200_000, all.length - 3}) {
            Files.write(growing, java.util.Arrays.copyOfRange(all, written, cut), StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            written = cut;
            tail.readNew(EventLogSource.ofFile(growing));
            assertFalse(tail.finished());
            AppSnapshot running = recorder.snapshot();
            assertFalse(running.complete(), "no ApplicationEnd yet");
        }
        Files.write(growing, java.util.Arrays.copyOfRange(all, written, all.length), StandardOpenOption.APPEND);
        Path done = Files.move(growing, dir.resolve(LOG.appId()));
        tail.readNew(EventLogSource.ofFile(done));
        assertTrue(tail.finished());
        assertEquals(List.of(), problems);
        assertEquals(LOG.lineCount(), seen.size(), "every event once");
        assertEquals(whole(done), recorder.snapshot());
        assertEquals(LOG.lineCount(), tail.stats(EventLogSource.ofFile(done)).lines());
        assertEquals(all.length, tail.stats(EventLogSource.ofFile(done)).bytesRead());
    }

    @Test
    void aGrowingZstdFileIsDecodedOnce(@TempDir Path dir) throws Exception {
        Path growing = dir.resolve(LOG.appId() + ".zstd.inprogress");
        Recorder recorder = new Recorder();
        int[] events = {0};
        List<String> problems = new ArrayList<>();
        EventLogTail tail = new EventLogTail(e -> {
            events[0]++;
            recorder.onEvent(e);
        }, problems::add);
        Iterator<String> lines = LOG.lines();
        try (OutputStream out = new ZstdOutputStream(Files.newOutputStream(growing))) {
            for (long chunk : new long[]{3, 50, 51, 200, 120}) {
                SyntheticLog.write(lines, out, chunk, false);
                out.flush(); // a frame block ends here; the next read decompresses past it
                tail.readNew(EventLogSource.ofFile(growing));
            }
            SyntheticLog.write(lines, out, Long.MAX_VALUE, false);
        }
        Path done = Files.move(growing, dir.resolve(LOG.appId() + ".zstd"));
        tail.readNew(EventLogSource.ofFile(done));
        assertEquals(List.of(), problems);
        assertEquals(LOG.lineCount(), events[0], "no line delivered twice");
        assertEquals(whole(done), recorder.snapshot());
    }

    @Test
    void aRollingLogsFinishedPartsAreNeverReadAgain(@TempDir Path dir) throws Exception {
        Path rolling = Files.createDirectories(dir.resolve("eventlog_v2_" + LOG.appId()));
        Path status = Files.createFile(rolling.resolve("appstatus_" + LOG.appId() + ".inprogress"));
        Iterator<String> lines = LOG.lines();
        Recorder recorder = new Recorder();
        int[] events = {0};
        List<String> problems = new ArrayList<>();
        EventLogTail tail = new EventLogTail(e -> {
            events[0]++;
            recorder.onEvent(e);
        }, problems::add);
        List<Path> parts = new ArrayList<>();
        for (int n = 1; lines.hasNext(); n++) {
            Path part = rolling.resolve("events_" + n + "_" + LOG.appId());
            try (OutputStream out = Files.newOutputStream(part)) {
                SyntheticLog.write(lines, out, 90, true);
            }
            parts.add(part);
            tail.readNew(LogDiscovery.rolling(rolling, problems::add));
            if (n >= 2) {
                // a part read once is never opened again: garbage in it now changes nothing
                Files.writeString(parts.get(n - 2), "not json at all\n");
            }
        }
        Files.move(status, rolling.resolve("appstatus_" + LOG.appId()));
        EventLogSource finished = LogDiscovery.rolling(rolling, problems::add);
        assertFalse(finished.inProgress());
        tail.readNew(finished);
        assertTrue(tail.finished());
        assertEquals(List.of(), problems);
        assertEquals(LOG.lineCount(), events[0]);
        assertTrue(recorder.snapshot().complete());
        assertEquals(LOG.tasks(), recorder.snapshot().stages().stream().mapToLong(s -> s.numCompleteTasks()).sum());
    }

    @Test
    void aShrunkFileAsksForARestart(@TempDir Path dir) throws Exception {
        Path growing = dir.resolve(LOG.appId() + ".inprogress");
        Files.write(growing, java.util.Arrays.copyOf(bytes(LOG), 20_000));
        EventLogTail tail = new EventLogTail(e -> { }, p -> { });
        tail.readNew(EventLogSource.ofFile(growing));
        assertFalse(tail.mustRestart(EventLogSource.ofFile(growing), Files.size(growing)));
        Files.writeString(growing, SyntheticLog.class.getSimpleName(), StandardCharsets.UTF_8);
        assertTrue(tail.mustRestart(EventLogSource.ofFile(growing), Files.size(growing)));
    }
}
