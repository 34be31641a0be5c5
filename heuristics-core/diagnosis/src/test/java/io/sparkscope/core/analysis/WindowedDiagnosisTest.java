package io.sparkscope.core.analysis;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A long run whose recorder keeps a window of 3 jobs, stages and SQL executions gives the same findings as the same
 * run recorded whole: application-wide ones from the run's totals, per-stage ones kept as their stages left. The
 * run is one where the window does not matter: its skewed stages last over a minute (skew counts then whatever the
 * application's length) and the failed tasks' share is the stage's own. It uses Kryo: SerializerConfig weighs the
 * RDD data of the stages a snapshot lists, which a window does cut (said in {@link WindowedDiagnosis}).
 */
class WindowedDiagnosisTest {
    private static final long START = 1_700_000_000_000L;
    private static final int JOBS = 40;

    @Test
    void findingsOfALongRunEqualThoseOfTheSameRunWithoutAWindow() {
        Diagnoser diagnoser = Diagnoser.defaults();

        Recorder whole = new Recorder(RecorderOptions.DEFAULTS);
        feed(whole, null);
        List<Finding> expected = diagnoser.diagnose(whole.snapshot());

        Recorder windowed = new Recorder(RecorderOptions.DEFAULTS.withWindow(3, 3, 3));
        WindowedDiagnosis diagnosis = new WindowedDiagnosis(diagnoser::diagnose);
        windowed.setEvictionListener(diagnosis);
        feed(windowed, windowed);
        AppSnapshot retained = windowed.snapshot();
        List<Finding> actual = diagnosis.diagnose(retained);

        assertTrue(retained.stages().size() <= 6, "the window held " + retained.stages().size() + " stages");
        assertTrue(retained.totals().stagesNotListed() > 30);
        assertTrue(expected.stream().anyMatch(f -> f.heuristic().equals("StageSkew")), "the run has skewed stages");
        assertTrue(expected.stream().anyMatch(f -> f.heuristic().equals("TaskFailure")), "and failed tasks");
        assertTrue(diagnosis.kept().size() >= 5, "findings kept of stages that left: " + diagnosis.kept().size());
        assertEquals(byId(expected), byId(actual));
    }

    @Test
    void aStageLeavingWithOthersKeepsTheFindingsItKeptLeavingAlone() {
        Diagnoser diagnoser = Diagnoser.defaults();
        Recorder whole = new Recorder(RecorderOptions.DEFAULTS);
        feed(whole, null);
        List<Finding> expected = diagnoser.diagnose(whole.snapshot());

        Recorder windowed = new Recorder(RecorderOptions.DEFAULTS.withWindow(5, 5, 5));
        WindowedDiagnosis together = new WindowedDiagnosis(diagnoser::diagnose);
        WindowedDiagnosis alone = new WindowedDiagnosis(diagnoser::diagnose);
        List<Integer> lookSizes = new ArrayList<>();
        windowed.setEvictionListener(look -> {
            lookSizes.add(look.stages().size());
            together.leaving(look);
            // The same look cut into one look per stage: what each saw before entities left together.
            for (StageSummary s : look.stages()) {
                alone.leaving(with(look, List.of(s)));
            }
            if (look.stages().isEmpty()) {
                alone.leaving(look);
            }
        });
        feed(windowed, windowed, 5);
        AppSnapshot retained = windowed.snapshot();

        assertTrue(lookSizes.stream().anyMatch(n -> n >= 5), "stages left together: " + lookSizes);
        assertTrue(together.kept().size() >= 5, "findings kept of stages that left: " + together.kept().size());
        assertEquals(byId(alone.kept()), byId(together.kept()));
        assertEquals(byId(expected), byId(together.diagnose(retained)));
    }

    private static AppSnapshot with(AppSnapshot s, List<StageSummary> stages) {
        return SnapshotBuilder.copy(s).stages(stages).build();
    }

    /** id → severity, title and message: what a user reads. */
    private static Map<String, String> byId(List<Finding> findings) {
        Map<String, String> out = new TreeMap<>();
        for (Finding f : findings) {
            out.put(f.id(), f.severity() + " | " + f.title() + " | " + f.message());
        }
        return out;
    }

    /** 40 RDD jobs of one 20-task stage each; every 10th has a 70 s straggler, every 7th 3 failed tasks. */
    private static void feed(Recorder r, Recorder flushTo) {
        feed(r, flushTo, 1);
    }

    /** As above, with a written snapshot every {@code flushEvery} jobs, so that as many stages leave in one round. */
    private static void feed(Recorder r, Recorder flushTo, int flushEvery) {
        r.onEvent(new SparkEvent.ApplicationStart("long", "app-long", null, START, "alice"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[4]",
                "spark.serializer", "org.apache.spark.serializer.KryoSerializer"), Map.of(), Map.of(), Map.of()));
        long t = START + 1000;
        long taskId = 0;
        for (int i = 0; i < JOBS; i++) {
            boolean skew = i % 10 == 3;
            boolean failures = i % 7 == 2;
            StageInfo pending = new StageInfo(i, 0, "map at Job.scala:" + i, 20, List.of(), "details", -1, -1, null,
                    List.of());
            r.onEvent(new SparkEvent.JobStart(i, t, List.of(i), List.of(pending), Map.of()));
            r.onEvent(new SparkEvent.StageSubmitted(new StageInfo(i, 0, pending.name(), 20, List.of(), "details", t,
                    -1, null, List.of())));
            long end = t;
            for (int k = 0; k < 20; k++) {
                long run = skew && k == 0 ? 70_000 : 2_000 + 10L * k;
                TaskInfo start = new TaskInfo(taskId, k, 0, k, t, "driver", "localhost", "PROCESS_LOCAL", false, 0, 0,
                        false, false);
                r.onEvent(new SparkEvent.TaskStart(i, 0, start));
                boolean fail = failures && k < 3;
                TaskInfo info = new TaskInfo(taskId, k, 0, k, t, "driver", "localhost", "PROCESS_LOCAL", false, 0,
                        t + run + 5, fail, false);
                TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, run)
                        .set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, 2).set(TaskMetric.JVM_GC_TIME, run / 50)
                        .set(TaskMetric.SHUFFLE_BYTES_WRITTEN, 1_000_000).build();
                TaskEndReason reason = fail ? new TaskEndReason("ExceptionFailure",
                        "java.lang.IllegalStateException: bad record " + k, "trace") : TaskEndReason.SUCCESS;
                r.onEvent(new SparkEvent.TaskEnd(i, 0, "ShuffleMapTask", reason, info, m));
                end = Math.max(end, t + run + 5);
                taskId++;
            }
            r.onEvent(new SparkEvent.StageCompleted(new StageInfo(i, 0, pending.name(), 20, List.of(), "details", t,
                    end, null, List.of())));
            r.onEvent(new SparkEvent.JobEnd(i, end + 1, true, null));
            t = end + 100;
            if (flushTo != null && (i + 1) % flushEvery == 0) {
                flushTo.written(flushTo.snapshots(false).changed().eventCount());
            }
        }
        r.onEvent(new SparkEvent.ApplicationEnd(t));
        if (flushTo != null) {
            flushTo.written(flushTo.snapshots(true).changed().eventCount());
        }
    }
}
