package io.sparkscope.store;

import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.SqlJobEvents;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live listener's partial writes take the stored configuration and stages their efficiency figures need from what
 * the writer remembers of its own last write instead of reading them again: the figures must be exactly those of a
 * writer that reads the rows every time, and those of one full write of the whole run, also when someone else wrote
 * the application in between.
 */
class EfficiencyMemoryTest {
    private static final long T0 = 1_764_500_000_000L;
    private static final String FIGURES = "SELECT core_hours_allocated::text, core_hours_used::text,"
            + " core_hours_wasted::text, core_hours_driver_alone::text, gb_hours_allocated::text,"
            + " gb_hours_peak_used::text, gb_hours_wasted::text, gb_hours_driver_alone::text, driver_alone_ms::text"
            + " FROM application WHERE app_id = 'app-mem'";

    /** The figure columns as PostgreSQL prints them: exact, not within a tolerance. */
    private static List<String> figures(DataSource ds) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(FIGURES)) {
            assertTrue(rs.next(), "the application is stored");
            List<String> out = new ArrayList<>();
            for (int i = 1; i <= 9; i++) {
                out.add(rs.getString(i));
            }
            return out;
        }
    }

    @Test
    void partialWritesGiveTheFiguresOfOneFullWrite() throws Exception {
        DataSource remembering = TestDb.migrated();
        DataSource reading = TestDb.migrated();
        SnapshotWriter writer = new SnapshotWriter();
        Recorder r = started(5);
        int hits = 0;
        for (int i = 0; i < 40; i++) {
            job(r, i);
            if (i % 2 == 1) {
                AppSnapshot changed = r.snapshots(false).changed();
                assertTrue(changed.partial());
                if (i == 21) {
                    // someone else's write of the application (another writer, no memory of this one's)
                    new SnapshotWriter().write(remembering, changed, List.of());
                } else {
                    long pk = writer.write(remembering, changed, List.of()).appPk();
                    hits += writer.efficiencyMemory().recall(pk, version(remembering)) != null ? 1 : 0;
                }
                // a writer that reads the stored rows on every write
                new SnapshotWriter().write(reading, changed, List.of());
                r.written(changed.eventCount());
                assertEquals(figures(reading), figures(remembering), "after job " + i);
            }
        }
        assertEquals(19, hits, "every write but the other writer's left its rows remembered");

        AppSnapshot whole = SnapshotReader.read(remembering, "app-mem", null).orElseThrow();
        assertEquals(40, whole.stages().size(), "every stage of the run is stored");
        Efficiency expected = Efficiency.of(whole);
        assertTrue(expected.driverAloneMs() > 0, "the driver worked alone between the jobs");
        assertEquals(expected.driverAloneMs(), Efficiency.of(r.snapshot()).driverAloneMs(),
                "the driver's window of recent stages with the run's totals gives the same figures");
        DataSource full = TestDb.migrated();
        new SnapshotWriter().write(full, whole, List.of());
        assertEquals(figures(full), figures(remembering), "one full write of the whole run");
        assertNotNull(figures(full).get(8));
        assertEquals(Long.toString(expected.driverAloneMs()), figures(full).get(8));
    }

    /**
     * A run longer than the memory keeps stage by stage: the oldest finished stages are folded into one union of task
     * spans, so the memory stays bounded and is still used at every write, and the figures stay those of a writer
     * that reads every row and of one full write.
     */
    @Test
    void aLongRunFoldsItsOldStagesAndKeepsTheFigures() throws Exception {
        longRun(-1);
    }

    /**
     * The same with a stage that starts early and never ends (a receiver, a long-running query): its span covers
     * everything after its start, so the finished stages after it are folded with the part of it they cover, and
     * the memory keeps its bound.
     */
    @Test
    void aStageRunningThroughTheRunDoesNotStopTheFolding() throws Exception {
        longRun(300);
    }

    /** {@code runningFrom}: the job after which a never-ending stage starts, or -1 for none. */
    private static void longRun(int runningFrom) throws Exception {
        DataSource remembering = TestDb.migrated();
        DataSource reading = TestDb.migrated();
        SnapshotWriter writer = new SnapshotWriter();
        // a window larger than what comes between two writes, so that every stage is written before it leaves
        Recorder r = started(300);
        int jobs = EfficiencyFigures.Stored.KEPT_STAGES + 600;
        int hits = 0;
        int writes = 0;
        EfficiencyFigures.Stored last = null;
        for (int i = 0; i < jobs; i++) {
            job(r, i);
            if (i == runningFrom) {
                startNeverEndingStage(r, T0 + 1000 + i * 100L + 50);
            }
            if (i % 200 == 199 || i == jobs - 1) {
                AppSnapshot changed = r.snapshots(false).changed();
                long pk = writer.write(remembering, changed, List.of()).appPk();
                last = writer.efficiencyMemory().recall(pk, version(remembering));
                hits += last != null ? 1 : 0;
                writes++;
                new SnapshotWriter().write(reading, changed, List.of());
                r.written(changed.eventCount());
                assertEquals(figures(reading), figures(remembering), "after job " + i);
            }
        }
        assertEquals(writes, hits, "every write left its rows remembered");
        assertNotNull(last);
        assertTrue(last.foldedAny(), "the oldest stages were folded");
        assertEquals(EfficiencyFigures.Stored.KEPT_STAGES, last.keptStages(), "the memory keeps its bound of stages");

        AppSnapshot whole = SnapshotReader.read(remembering, "app-mem", null).orElseThrow();
        assertEquals(jobs + (runningFrom >= 0 ? 1 : 0), whole.stages().size(), "every stage of the run is stored");
        DataSource full = TestDb.migrated();
        new SnapshotWriter().write(full, whole, List.of());
        assertEquals(figures(full), figures(remembering), "one full write of the whole run");
        assertEquals(Long.toString(Efficiency.of(whole).driverAloneMs()), figures(remembering).get(8));
    }

    /** A job whose one stage launches a task at {@code launch} that does not end. */
    private static void startNeverEndingStage(Recorder r, long launch) {
        int id = 100_000;
        StageInfo info = new StageInfo(id, 0, "receive", 1, List.of(), "", launch - 1, -1, null, List.of());
        r.onEvent(new SparkEvent.JobStart(id, launch - 1, List.of(id), List.of(info), Map.of()));
        r.onEvent(new SparkEvent.StageSubmitted(info));
        r.onEvent(new SparkEvent.TaskStart(id, 0, new TaskInfo(1_000_000, 0, 0, 0, launch, "driver", "localhost",
                "PROCESS_LOCAL", false, 0, 0, false, false)));
    }

    /** A recorder with a window of {@code window} entities of each kind, the application started in local mode. */
    private static Recorder started(int window) {
        Recorder r = new Recorder(RecorderOptions.DEFAULTS.withWindow(window, window, window));
        r.onEvent(new SparkEvent.ApplicationStart("mem", "app-mem", null, T0, "alice"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[2]", "spark.driver.memory", "2g"),
                Map.of(), Map.of("java.version", "17"), Map.of()));
        r.onEvent(new SparkEvent.ExecutorAdded(T0, "driver", "localhost", 2));
        return r;
    }

    private static long version(DataSource ds) throws Exception {
        try (Connection c = ds.getConnection()) {
            return ApplicationRow.find(c, "app-mem", null).orElseThrow().version();
        }
    }

    /** One SQL job, one stage of 3 tasks, 100 ms apart: the driver works alone in between. */
    private static void job(Recorder r, int i) {
        SqlJobEvents.oneStageJob(r, i, T0, true);
    }
}
