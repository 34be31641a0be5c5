package io.sparkscope.core.analysis;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.SyntheticLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Offline reads within the listener's windows: the same snapshot for ordinary logs, bounded for wide ones. */
class WindowedReadingTest {
    private static final long T0 = 1_700_000_000_000L;

    @Test
    void anOrdinaryLogGivesTheSnapshotOfAnUnwindowedRead(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("app");
        new SyntheticLog("app-ordinary", "ordinary", T0, 30, 40).executors(6).writeTo(log);
        EventLogSource source = EventLogSource.ofFile(log);
        AppSnapshot all = EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS, p -> { }).snapshot();
        EventLogAnalysis.Result windowed = EventLogAnalysis.analyze(source,
                RecorderOptions.DEFAULTS.withDefaultWindows(), s -> List.of(), null, p -> { });
        assertEquals(30, all.jobs().size());
        assertFalse(windowed.snapshot().partial());
        assertEquals(all, windowed.snapshot());
    }

    @Test
    void removedExecutorsPastTheWindowLeaveAndDoNotComeBack() {
        WindowedReading reading = new WindowedReading(RecorderOptions.DEFAULTS.withDeadExecutorWindow(100), null,
                null);
        start(reading);
        reading.accept(new SparkEvent.ExecutorAdded(T0 + 1, "1", "host-1", 2));
        for (int e = 2; e < 5_002; e++) {
            reading.accept(new SparkEvent.ExecutorAdded(T0 + 10L * e, String.valueOf(e), "host-" + e, 2));
            reading.accept(new SparkEvent.ExecutorRemoved(T0 + 10L * e + 5, String.valueOf(e), "idle"));
        }
        // a late sample for an executor long gone brings no empty executor back
        reading.accept(new SparkEvent.StageExecutorMetrics("2", 0, 0, Map.of("JVMHeapMemory", 1L << 20)));
        AppSnapshot s = reading.recorder().snapshot();
        Set<String> ids = new TreeSet<>();
        for (ExecutorSummary x : s.executors()) {
            ids.add(x.executorId());
        }
        assertTrue(ids.size() <= 1 + 2 * 100, "executors kept: " + ids.size());
        assertTrue(ids.contains("1"), "the live one stays");
        assertTrue(ids.contains("5001") && !ids.contains("2"), "the newest removed ones stay, the oldest left");
        assertTrue(s.partial(), "a snapshot without every executor says it is partial");
        assertEquals(5_000, s.totals().executorsNotListed() + s.executors().size() - 1,
                "the totals count the removed executors that left");
    }

    @Test
    void anExecutorThatComesBackStaysWhileAlive() {
        WindowedReading reading = new WindowedReading(RecorderOptions.DEFAULTS.withDeadExecutorWindow(1), null, null);
        start(reading);
        reading.accept(new SparkEvent.ExecutorAdded(T0 + 1, "back", "h", 2));
        reading.accept(new SparkEvent.ExecutorRemoved(T0 + 2, "back", "lost"));
        reading.accept(new SparkEvent.ExecutorAdded(T0 + 3, "back", "h", 2));
        for (int e = 0; e < 1_000; e++) {
            reading.accept(new SparkEvent.ExecutorAdded(T0 + 10L * e, "x" + e, "h", 2));
            reading.accept(new SparkEvent.ExecutorRemoved(T0 + 10L * e + 5, "x" + e, "idle"));
        }
        reading.recorder().release();
        AppSnapshot s = reading.recorder().snapshot();
        assertTrue(s.executors().stream().anyMatch(x -> x.executorId().equals("back") && x.removeTime() < 0),
                "registered again, so alive and kept");
    }

    @Test
    void checkpointsAndTheLastSnapshotTogetherHoldEveryJob() {
        Set<Integer> written = new TreeSet<>();
        int[] writes = {0};
        WindowedReading reading = new WindowedReading(RecorderOptions.DEFAULTS.withWindow(20, 20, 20), null,
                changed -> {
                    writes[0]++;
                    assertTrue(changed.partial());
                    changed.jobs().forEach(j -> written.add(j.jobId()));
                    return true;
                });
        start(reading);
        reading.accept(new SparkEvent.ExecutorAdded(T0 + 1, "1", "host-1", 2));
        for (int j = 0; j < 2_000; j++) {
            job(reading, j);
        }
        reading.accept(new SparkEvent.ApplicationEnd(T0 + 1_000_000));
        AppSnapshot last = reading.recorder().snapshot();
        last.jobs().forEach(j -> written.add(j.jobId()));
        assertTrue(writes[0] > 10, "written on the way: " + writes[0]);
        assertTrue(last.jobs().size() <= 2 * 20, "jobs kept: " + last.jobs().size());
        assertEquals(2_000, written.size(), "no job left without being written");
        assertEquals(2_000, last.totals().jobs(), "the totals cover the whole run");
        assertEquals(2_000, last.totals().tasks());
    }

    @Test
    void aStoreThatRefusesEveryWriteStillBoundsTheWindow() {
        int[] tries = {0};
        WindowedReading reading = new WindowedReading(RecorderOptions.DEFAULTS.withWindow(20, 20, 20), null,
                changed -> {
                    tries[0]++;
                    return false;
                });
        start(reading);
        for (int j = 0; j < 2_000; j++) {
            job(reading, j);
        }
        AppSnapshot s = reading.recorder().snapshot();
        assertTrue(s.jobs().size() <= 2 * 20, "jobs kept: " + s.jobs().size());
        assertTrue(reading.recorder().leftUnwritten() > 0, "past twice the window they leave unwritten, counted");
        assertTrue(tries[0] <= 14_000 / WindowedReading.RETRY_AFTER_EVENTS + 1, "not a write per event: " + tries[0]);
    }

    private static void start(WindowedReading r) {
        r.accept(new SparkEvent.ApplicationStart("wide", "app-wide", null, T0, "alice"));
        r.accept(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "yarn"), Map.of(), Map.of(), Map.of()));
    }

    private static void job(WindowedReading r, int j) {
        long t = T0 + 100 + 10L * j;
        StageInfo pending = new StageInfo(j, 0, "count", 1, List.of(), "", -1, -1, null, List.of());
        r.accept(new SparkEvent.JobStart(j, t, List.of(j), List.of(pending), Map.of()));
        StageInfo running = new StageInfo(j, 0, "count", 1, List.of(), "", t + 1, -1, null, List.of());
        r.accept(new SparkEvent.StageSubmitted(running));
        TaskInfo start = new TaskInfo(j, 0, 0, 0, t + 2, "1", "host-1", "PROCESS_LOCAL", false, 0, 0, false, false);
        r.accept(new SparkEvent.TaskStart(j, 0, start));
        TaskInfo end = new TaskInfo(j, 0, 0, 0, t + 2, "1", "host-1", "PROCESS_LOCAL", false, 0, t + 7, false, false);
        TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 4).build();
        r.accept(new SparkEvent.TaskEnd(j, 0, "ResultTask", TaskEndReason.SUCCESS, end, m));
        r.accept(new SparkEvent.StageCompleted(new StageInfo(j, 0, "count", 1, List.of(), "", t + 1, t + 8, null,
                List.of())));
        r.accept(new SparkEvent.JobEnd(j, t + 9, true, null));
    }
}
