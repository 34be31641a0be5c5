package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.testing.ExampleEventLogs;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Periodic snapshots leave out the task rows of running stages (written once the stage completes). */
class RunningTaskDetailTest {
    private static final Path SHIPPED = ExampleEventLogs.DIR;

    @Test
    void aRunningStageGoesOutWithoutItsTasksAndEverythingElseUnchanged() throws Exception {
        List<SparkEvent> events = new ArrayList<>();
        EventLogSource log = EventLogReader.discover(SHIPPED).get(0);
        EventLogReader.read(log, events::add, problem -> { });
        // replay up to the middle of the first stage: some of its tasks ended, the stage has not completed
        Recorder r = new Recorder();
        int taskEnds = 0;
        for (SparkEvent e : events) {
            r.onEvent(e);
            if (e instanceof SparkEvent.TaskEnd && ++taskEnds == 3) {
                break;
            }
        }
        AppSnapshot mid = r.snapshot();
        StageSummary running = mid.stages().stream().filter(s -> s.status() == StageSummary.StageStatus.ACTIVE)
                .filter(s -> !s.keptTasks().isEmpty()).findFirst().orElseThrow();

        AppSnapshot sent = r.snapshot(false); // what the pipeline sends between flushes
        StageSummary out = sent.stages().stream().filter(s -> s.key().equals(running.key())).findFirst().orElseThrow();
        assertTrue(out.keptTasks().isEmpty(), "no task rows for a running stage");
        assertEquals(running.taskSummary(), out.taskSummary(), "its statistics still go out");
        assertEquals(running.totals(), out.totals());
        assertEquals(running.numCompleteTasks(), out.numCompleteTasks());
        assertEquals(mid.stages().size(), sent.stages().size());
        assertEquals(mid.jobs(), sent.jobs());

        for (SparkEvent e : events.subList(events.indexOf(events.stream().filter(x -> x instanceof SparkEvent.TaskEnd)
                .skip(2).findFirst().orElseThrow()) + 1, events.size())) {
            r.onEvent(e);
        }
        AppSnapshot end = r.snapshot();
        assertFalse(end.stages().stream().anyMatch(s -> s.status() == StageSummary.StageStatus.ACTIVE));
        assertEquals(end, r.snapshot(false), "completed stages keep their tasks");
    }
}
