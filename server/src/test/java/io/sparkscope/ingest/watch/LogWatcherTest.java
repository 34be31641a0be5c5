package io.sparkscope.ingest.watch;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.testing.SyntheticLog;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.store.LogWatchStates;
import io.sparkscope.store.TestDb;
import io.sparkscope.store.ingest.IngestService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The watcher on a real directory and a real PostgreSQL: running, growing, finished, restarted, shared. */
class LogWatcherTest {
    private static final long T0 = 1_764_000_000_000L;

    private static LogWatcher watcher(Path dir, DataSource ds, String owner, int maxOpen, List<String> out) {
        Diagnoser d = Diagnoser.defaults();
        IngestService ingest = IngestService.builder(ds).heuristics(d::diagnose).build();
        LogWatcher.Options o = new LogWatcher.Options(Duration.ofMillis(100), maxOpen, RecorderOptions.DEFAULTS,
                Duration.ofMinutes(2));
        return new LogWatcher(dir, ingest, new LogWatchStates(ds, owner, o.lease()), o, out::add);
    }

    private static String status(DataSource ds, String appId) {
        try (var c = ds.getConnection(); var ps = c.prepareStatement("select status from application where app_id = ?")) {
            ps.setString(1, appId);
            try (var rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static long tasks(DataSource ds, String appId) {
        return TestDb.count(ds, "select coalesce(sum(s.num_complete_tasks), 0) from stage_attempt s join application a"
                + " using (app_pk) where a.app_id = '" + appId + "'");
    }

    @Test
    void aRunningLogIsShownGrowingThenFinalisedOnce(@TempDir Path dir) throws Exception {
        DataSource ds = TestDb.migrated();
        SyntheticLog log = new SyntheticLog("application_1764000000000_0101", "nightly", T0, 4, 50);
        Path growing = dir.resolve(log.appId() + ".inprogress");
        Iterator<String> lines = log.lines();
        List<String> out = new ArrayList<>();
        LogWatcher w = watcher(dir, ds, "w1", 8, out);
        long tasksSeen = -1;
        try (OutputStream o = Files.newOutputStream(growing)) {
            for (int step = 0; step < 3; step++) {
                SyntheticLog.write(lines, o, 120, false);
                LogWatcher.Scan s = w.scan();
                assertEquals(null, s.error(), String.join("\n", out));
                assertEquals("RUNNING", status(ds, log.appId()), String.join("\n", out));
                long t = tasks(ds, log.appId());
                assertTrue(t > tasksSeen, "the stored application grows with its log: " + t);
                tasksSeen = t;
                assertEquals(120, s.events(), "only what the log gained is decoded: " + s.line());
            }
            SyntheticLog.write(lines, o, Long.MAX_VALUE, false);
        }
        Files.move(growing, dir.resolve(log.appId()));
        LogWatcher.Scan end = w.scan();
        assertEquals(1, end.finished(), end.line());
        assertEquals(log.lineCount() - 360, end.events(), end.line());
        assertEquals("COMPLETE", status(ds, log.appId()));
        assertEquals(log.tasks(), tasks(ds, log.appId()));
        LogWatcher.Scan idle = w.scan();
        assertEquals(0, idle.events(), idle.line());
        assertEquals(1, idle.unchanged(), idle.line());
        assertEquals(0, w.openLogs());

        // a restart reads nothing that is stored finished
        List<String> out2 = new ArrayList<>();
        LogWatcher restarted = watcher(dir, ds, "w2", 8, out2);
        LogWatcher.Scan first = restarted.scan();
        assertEquals(0, first.events(), first.line() + "\n" + out2);
        assertEquals(1, TestDb.count(ds, "select count(*) from application"));
    }

    @Test
    void aRollingLogsNewPartsAreReadAloneAndCompressedLogsToo(@TempDir Path dir) throws Exception {
        DataSource ds = TestDb.migrated();
        SyntheticLog log = new SyntheticLog("application_1764000000000_0102", "rolling", T0, 3, 60).seed(3);
        Path rolling = Files.createDirectories(dir.resolve("eventlog_v2_" + log.appId()));
        Path status = Files.createFile(rolling.resolve("appstatus_" + log.appId() + ".inprogress"));
        new SyntheticLog("application_1764000000000_0103", "compressed", T0, 2, 30).writeTo(
                dir.resolve("application_1764000000000_0103.zstd"),
                o -> {
                    try {
                        return new com.github.luben.zstd.ZstdOutputStream(o);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
        Iterator<String> lines = log.lines();
        List<String> out = new ArrayList<>();
        LogWatcher w = watcher(dir, ds, "w1", 8, out);
        long read = 0;
        for (int part = 1; lines.hasNext(); part++) {
            long written;
            try (OutputStream o = Files.newOutputStream(rolling.resolve("events_" + part + "_" + log.appId()))) {
                written = countLines(lines, o, 100);
            }
            LogWatcher.Scan s = w.scan();
            long compressedLines = part == 1 ? new SyntheticLog("application_1764000000000_0103", "compressed", T0, 2, 30)
                    .lineCount() : 0;
            assertEquals(written + compressedLines, s.events(), "each scan decodes only the new part: " + s.line());
            read += s.events() - compressedLines;
        }
        Files.move(status, rolling.resolve("appstatus_" + log.appId()));
        LogWatcher.Scan end = w.scan();
        assertEquals(1, end.finished(), end.line() + "\n" + out);
        assertEquals(log.lineCount(), read + end.events());
        assertEquals("COMPLETE", status(ds, log.appId()));
        assertEquals("COMPLETE", status(ds, "application_1764000000000_0103"));
    }

    private static long countLines(Iterator<String> lines, OutputStream o, int max) throws IOException {
        long n = 0;
        StringBuilder b = new StringBuilder();
        while (n < max && lines.hasNext()) {
            b.append(lines.next()).append('\n');
            n++;
        }
        o.write(b.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return n;
    }

    @Test
    void twoWatchersOnOneDirectoryReadEachLogOnce(@TempDir Path dir) throws Exception {
        DataSource ds = TestDb.migrated();
        long lines = 0;
        for (int i = 0; i < 12; i++) {
            SyntheticLog log = new SyntheticLog(String.format("application_1764000000000_%04d", 200 + i), "job-" + i,
                    T0 + i * 60_000L, 2, 40).seed(i);
            log.writeTo(dir.resolve(log.appId()));
            lines += log.lineCount();
        }
        List<String> out = Collections.synchronizedList(new ArrayList<>());
        LogWatcher a = watcher(dir, ds, "a", 8, out);
        LogWatcher b = watcher(dir, ds, "b", 8, out);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch go = new CountDownLatch(1);
        Future<LogWatcher.Scan> fa = pool.submit(() -> {
            go.await();
            return a.scan();
        });
        Future<LogWatcher.Scan> fb = pool.submit(() -> {
            go.await();
            return b.scan();
        });
        go.countDown();
        LogWatcher.Scan sa = fa.get();
        LogWatcher.Scan sb = fb.get();
        pool.shutdown();
        // what one skipped because the other held it, the next scan finds settled
        LogWatcher.Scan sa2 = a.scan();
        LogWatcher.Scan sb2 = b.scan();
        long decoded = sa.events() + sb.events() + sa2.events() + sb2.events();
        assertEquals(lines, decoded, "every log decoded by one watcher only:\n" + sa.line() + "\n" + sb.line()
                + "\n" + sa2.line() + "\n" + sb2.line());
        assertEquals(12, TestDb.count(ds, "select count(*) from application where status = 'COMPLETE'"), String.join("\n", out));
        assertEquals(12, TestDb.count(ds, "select count(*) from log_watch where status = 'DONE' and claimed_by is null"));
    }

    @Test
    void openLogsStayWithinTheLimit(@TempDir Path dir) throws Exception {
        DataSource ds = TestDb.migrated();
        List<Iterator<String>> logs = new ArrayList<>();
        List<OutputStream> files = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            SyntheticLog log = new SyntheticLog(String.format("application_1764000000000_%04d", 300 + i), "run-" + i,
                    T0, 3, 40).seed(i);
            logs.add(log.lines());
            files.add(Files.newOutputStream(dir.resolve(log.appId() + ".inprogress"), StandardOpenOption.CREATE));
        }
        List<String> out = new ArrayList<>();
        LogWatcher w = watcher(dir, ds, "w", 2, out);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < logs.size(); i++) {
                SyntheticLog.write(logs.get(i), files.get(i), 50, false);
            }
            LogWatcher.Scan s = w.scan();
            assertTrue(s.open() <= 2, s.line());
            assertEquals(5, s.running(), s.line());
        }
        for (OutputStream f : files) {
            f.close();
        }
        assertEquals(5, TestDb.count(ds, "select count(*) from application where status = 'RUNNING'"));
    }
}
