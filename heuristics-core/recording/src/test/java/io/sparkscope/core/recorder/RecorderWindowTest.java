package io.sparkscope.core.recorder;

import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.RunTotals;
import io.sparkscope.core.model.StageSummary;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecorderWindowTest {
    private static final RecorderOptions WINDOW_10 = RecorderOptions.DEFAULTS.withWindow(10, 10, 10);

    private static Recorder started(RecorderOptions options) {
        Recorder r = new Recorder(options);
        r.onEvent(LongRun.appStart());
        r.onEvent(LongRun.environment());
        return r;
    }

    /** Runs {@code jobs} jobs, a written snapshot every {@code flushEvery} jobs (none when 0). */
    private static Recorder run(RecorderOptions options, int jobs, int flushEvery, int failEvery) {
        Recorder r = started(options);
        LongRun run = new LongRun();
        for (int i = 0; i < jobs; i++) {
            run.job(r, i, 1 + i % 3, failEvery > 0 && i % failEvery == 0);
            if (flushEvery > 0 && (i + 1) % flushEvery == 0) {
                r.written(r.snapshots(false).changed().eventCount());
            }
        }
        return r;
    }

    @Test
    void keepsAWindowOfWrittenEntitiesAndTotalsCoverTheWholeRun() {
        Recorder windowed = run(WINDOW_10, 200, 5, 0);
        Recorder everything = run(RecorderOptions.DEFAULTS, 200, 5, 0);
        AppSnapshot w = windowed.snapshot();
        AppSnapshot all = everything.snapshot();

        assertEquals(200, all.jobs().size());
        assertFalse(all.partial(), "without a window the snapshot is the whole application");
        assertTrue(w.partial(), "once entities left, the retained snapshot does not list everything");
        // At most the window plus what completed since the last written snapshot waits to leave.
        assertTrue(w.jobs().size() <= 10 + 5, "jobs kept: " + w.jobs().size());
        assertTrue(w.stages().size() <= 10 + 5, "stages kept: " + w.stages().size());
        assertTrue(w.sqlExecutions().size() <= 10 + 5, "SQL executions kept: " + w.sqlExecutions().size());
        // The newest are the ones kept.
        assertEquals(199, w.jobs().get(w.jobs().size() - 1).jobId());

        RunTotals wt = w.totals();
        RunTotals at = all.totals();
        assertEquals(200, wt.jobs());
        assertEquals(200, wt.stages());
        assertEquals(200, wt.sqlExecutions());
        assertEquals(at.tasks(), wt.tasks());
        assertEquals(at.taskEndEvents(), wt.taskEndEvents());
        assertEquals(at.metrics(), wt.metrics(), "task-metric totals of the whole run");
        assertEquals(at.jobGroups(), wt.jobGroups(), "per job group");
        assertEquals(at.sqlDescriptions(), wt.sqlDescriptions(), "per SQL description");
        assertEquals(5, wt.jobGroups().size());
        assertEquals(40, wt.jobGroups().get(0).count());
        assertEquals(200 - w.jobs().size(), wt.jobsNotListed());
        assertEquals(all.totalTasks(), w.totalTasks());
        assertEquals(0, windowed.leftUnwritten());
    }

    @Test
    void aJobKeepsTheTaskCountsOfItsStagesThatLeft() {
        // A job whose stage leaves before the job does still counts that stage's tasks.
        Recorder r = started(RecorderOptions.DEFAULTS.withWindow(1000, 1, 1000));
        LongRun run = new LongRun();
        for (int i = 0; i < 5; i++) {
            run.job(r, i, 4, false);
            r.written(r.snapshots(false).changed().eventCount());
        }
        AppSnapshot s = r.snapshot();
        assertTrue(s.stages().size() < 5);
        for (JobSummary j : s.jobs()) {
            assertEquals(4, j.numCompletedTasks(), "job " + j.jobId());
        }
    }

    @Test
    void nothingLeavesBeforeItIsWrittenUntilTwiceTheWindow() {
        Recorder r = run(WINDOW_10, 15, 0, 0);
        assertEquals(15, r.snapshot().jobs().size(), "nothing written yet: everything waits");
        assertEquals(0, r.leftUnwritten());
        Recorder outage = run(WINDOW_10, 50, 0, 0);
        assertEquals(20, outage.snapshot().jobs().size(), "past twice the window the oldest leave unwritten");
        assertEquals(30 * 3, outage.leftUnwritten(), "30 jobs, their stages and SQL executions");
        assertEquals(50, outage.snapshot().totals().jobs(), "the totals still count them");
    }

    @Test
    void failedOnesHaveAWindowOfTheirOwn() {
        Recorder r = run(WINDOW_10, 200, 5, 20); // 10 jobs with a failed task; stages succeed
        AppSnapshot s = r.snapshot();
        assertEquals(200, s.totals().jobs());
        assertEquals(10, s.totals().failedAttempts());
    }

    @Test
    void changesCarryOnlyWhatChangedSinceTheLastWrite() {
        Recorder r = run(WINDOW_10, 30, 0, 0);
        Recorder.Snapshots first = r.snapshots(false);
        assertTrue(first.changed().partial());
        assertEquals(first.retained().jobs().size(), first.changed().jobs().size(), "nothing written: all changed");
        assertFalse(first.changed().config().sparkProperties().isEmpty(), "the configuration was never written");
        r.written(first.changed().eventCount());

        LongRun more = new LongRun();
        more.job(r, 30, 1, false);
        Recorder.Snapshots second = r.snapshots(false);
        AppSnapshot changed = second.changed();
        assertEquals(List.of(30), changed.jobs().stream().map(JobSummary::jobId).toList());
        assertEquals(List.of("30.0"), changed.stages().stream().map(StageSummary::key).toList());
        assertEquals(1, changed.sqlExecutions().size());
        assertEquals(1, changed.executors().size(), "every executor (here the driver) goes out each time");
        assertEquals(second.retained().config().jobIdentity(), changed.config(),
                "an unchanged configuration is left out, all but what names the job");
        assertEquals("local[2]", changed.config().sparkProperties().get("spark.master"));
        assertEquals(31, changed.totals().jobs(), "the totals are always the whole run's");
        assertEquals(second.retained().totals(), changed.totals());

        // A failed write acknowledges nothing: the next changes still hold job 30, and job 31 besides.
        more.job(r, 31, 1, false);
        AppSnapshot third = r.snapshots(false).changed();
        assertEquals(List.of(30, 31), third.jobs().stream().map(JobSummary::jobId).toList());
        r.written(third.eventCount());
        assertTrue(r.snapshots(false).changed().jobs().isEmpty(), "written: nothing changed since");
    }

    @Test
    void theFinalSnapshotCarriesARunningStageWithItsTasksThoughNothingChangedSinceTheLastWrite() {
        Recorder r = started(WINDOW_10);
        r.onEvent(new io.sparkscope.core.event.SparkEvent.StageSubmitted(
                Events.stage(0, 0, 2, LongRun.START + 1, -1, null)));
        r.onEvent(new io.sparkscope.core.event.SparkEvent.TaskStart(0, 0,
                Events.task(1, 0, LongRun.START + 2, 0, "driver", false)));
        r.onEvent(Events.success(0, 0, Events.task(1, 0, LongRun.START + 2, LongRun.START + 9, "driver", false),
                Events.metrics(7, 0)));
        r.onEvent(new io.sparkscope.core.event.SparkEvent.TaskStart(0, 0,
                Events.task(2, 1, LongRun.START + 2, 0, "driver", false)));
        AppSnapshot periodic = r.snapshots(false).changed();
        assertTrue(periodic.stages().get(0).keptTasks().isEmpty(), "a periodic write leaves a running stage's tasks out");
        r.written(periodic.eventCount());
        assertTrue(r.snapshots(false).changed().stages().isEmpty(), "nothing changed since the write");

        AppSnapshot last = r.snapshots(true).changed();
        assertEquals(List.of("0.0"), last.stages().stream().map(StageSummary::key).toList());
        assertEquals(List.of(1L), last.stages().get(0).keptTasks().stream()
                .map(io.sparkscope.core.model.TaskRecord::taskId).toList());
    }

    @Test
    void aLateTaskEndOfAStageThatLeftChangesNothing() {
        Recorder r = run(WINDOW_10, 100, 5, 0);
        long tasks = r.snapshot().totalTasks();
        r.onEvent(Events.success(0, 0, Events.task(999_999, 0, LongRun.START, LongRun.START + 5, "driver", false),
                Events.metrics(5, 0)));
        AppSnapshot s = r.snapshot();
        assertEquals(tasks, s.totalTasks());
        assertFalse(s.stages().stream().anyMatch(st -> st.stageId() == 0), "no phantom stage 0");
    }

    @Test
    void driverTimeSpansOfStagesThatLeftAreSummed() {
        AppSnapshot w = run(WINDOW_10, 100, 5, 0).snapshot();
        AppSnapshot all = run(RecorderOptions.DEFAULTS, 100, 5, 0).snapshot();
        assertTrue(w.totals().taskSpans() != null);
        assertEquals(null, all.totals().taskSpans());
        List<StageSummary> listed = new ArrayList<>(w.stages());
        long busyOfListed = 0;
        for (StageSummary s : listed) {
            busyOfListed += s.lastTaskFinishedTime() - s.firstTaskLaunchedTime();
        }
        long busyAll = 0;
        for (StageSummary s : all.stages()) {
            busyAll += s.lastTaskFinishedTime() - s.firstTaskLaunchedTime();
        }
        assertEquals(busyAll, w.totals().taskSpans().busyMs() + busyOfListed, "jobs run one after another");
    }

    @Test
    void entitiesThatLeftComeInLooksOfAtMostTheBatchEachOfOneKindAndAllAtTheNextSnapshot() {
        int window = 300;
        Recorder r = started(RecorderOptions.DEFAULTS.withWindow(window, window, window));
        List<AppSnapshot> looks = new ArrayList<>();
        r.setEvictionListener(looks::add);
        LongRun run = new LongRun();
        int jobs = 2 * window;
        for (int i = 0; i < jobs; i++) {
            run.job(r, i, 1, false);
        }
        assertTrue(looks.isEmpty(), "nothing written yet, nothing past twice the window: nothing leaves");
        // One write lets the oldest 300 stages and 300 SQL executions leave in one round.
        r.written(r.snapshots(false).changed().eventCount());
        run.job(r, jobs, 1, false);
        assertTrue(looks.stream().anyMatch(l -> l.stages().size() == Recorder.LEAVING_BATCH)
                && looks.stream().anyMatch(l -> l.sqlExecutions().size() == Recorder.LEAVING_BATCH),
                "a full batch of each kind is handed over at once, before any snapshot");
        AppSnapshot retained = r.snapshot();
        assertTrue(retained.stages().size() <= window + 1);

        int stages = 0;
        int sql = 0;
        int biggest = 0;
        for (AppSnapshot look : looks) {
            assertTrue(look.stages().isEmpty() || look.sqlExecutions().isEmpty(), "one kind per look");
            assertTrue(look.jobs().isEmpty());
            int size = look.stages().size() + look.sqlExecutions().size();
            assertTrue(size > 0 && size <= Recorder.LEAVING_BATCH, "look of " + size);
            biggest = Math.max(biggest, size);
            stages += look.stages().size();
            sql += look.sqlExecutions().size();
            assertEquals("local[2]", look.config().sparkProperties().get("spark.master"), "the application's context");
            assertFalse(look.executors().isEmpty());
        }
        // The job after the write let one more of each leave; the snapshot handed over the rest.
        assertEquals(window + 1, stages, "every stage that left was looked at once");
        assertEquals(window + 1, sql);
        assertEquals(Recorder.LEAVING_BATCH, biggest, "a round larger than the batch is cut at the batch");
        assertTrue(looks.size() >= 4, "looks: " + looks.size());
        assertEquals(0, looks.get(0).stages().get(0).stageId(), "the oldest leave first");
    }
}
