package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A running application's periodic snapshots are diagnosed at most once per {@code diagnosis.intervalMs} (the flushes in
 * between carry the last findings); the final snapshot is always diagnosed, over everything recorded.
 */
class DiagnosisIntervalTest {
    private static final long T0 = 1_764_600_000_000L;

    @Test
    void periodicSnapshotsReuseFindingsWithinTheIntervalAndTheFinalOneIsDiagnosed() throws Exception {
        List<AppSnapshot> diagnosed = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<AppSnapshot> finalSnapshot = new AtomicReference<>();
        RecordingPipeline p = pipeline(Map.of("spark.sparkscope.flush.intervalMs", "100",
                "spark.sparkscope.diagnosis.intervalMs", "3600000"), diagnosed, finalSnapshot);
        p.start();
        p.offer(new SparkEvent.ApplicationStart("diag", "app-diag-interval", null, T0, "alice"));
        for (int i = 0; i < 10; i++) {
            job(p, i);
            Thread.sleep(150); // more than one flush interval: each job is in a periodic snapshot of its own
        }
        p.offer(new SparkEvent.ApplicationEnd(T0 + 10_000));
        assertTrue(p.awaitFinished(30_000), "final snapshot published");

        // one diagnosis of the first periodic snapshot, one of the final: not one per flush
        assertEquals(2, diagnosed.size(), "diagnoses: " + diagnosed.size());
        AppSnapshot last = diagnosed.get(diagnosed.size() - 1);
        assertTrue(last.complete(), "the final snapshot is diagnosed");
        assertSame(finalSnapshot.get(), last);
        assertEquals(10, last.jobs().size(), "diagnosed over every job");
        assertEquals(List.of(finding("app-diag-interval", 10)), p.lastFindings());
    }

    @Test
    void anIntervalOfZeroDiagnosesEveryFlush() throws Exception {
        List<AppSnapshot> diagnosed = Collections.synchronizedList(new ArrayList<>());
        RecordingPipeline p = pipeline(Map.of("spark.sparkscope.flush.intervalMs", "100",
                "spark.sparkscope.diagnosis.intervalMs", "0"), diagnosed, new AtomicReference<>());
        p.start();
        p.offer(new SparkEvent.ApplicationStart("diag", "app-diag-every", null, T0, "alice"));
        for (int i = 0; i < 5; i++) {
            job(p, i);
            Thread.sleep(250);
        }
        p.offer(new SparkEvent.ApplicationEnd(T0 + 10_000));
        assertTrue(p.awaitFinished(30_000), "final snapshot published");
        assertTrue(diagnosed.size() >= 4, "a diagnosis per flush, got " + diagnosed.size());
    }

    private static RecordingPipeline pipeline(Map<String, String> conf, List<AppSnapshot> diagnosed,
                                              AtomicReference<AppSnapshot> finalSnapshot) {
        ListenerConfig cfg = ListenerConfig.from(conf, w -> { });
        Function<AppSnapshot, List<Finding>> diagnose = s -> {
            diagnosed.add(s);
            return List.of(finding(s.appId(), s.jobs().size()));
        };
        return new RecordingPipeline(cfg, null, diagnose, (s, f) -> finalSnapshot.set(s));
    }

    /** A finding that says how many jobs the diagnosed snapshot held. */
    private static Finding finding(String appId, int jobs) {
        return new Finding("Jobs@" + appId, "Jobs", io.sparkscope.core.heuristics.Severity.LOW, jobs + " jobs",
                "a test finding", "", List.of(), List.of(), List.of(), Map.of());
    }

    private static void job(RecordingPipeline p, int i) {
        long t = T0 + 1000 + i * 100L;
        StageInfo pending = new StageInfo(i, 0, "collect", 1, List.of(), "", -1, -1, null, List.of());
        p.offer(new SparkEvent.JobStart(i, t, List.of(i), List.of(pending), Map.of()));
        p.offer(new SparkEvent.StageSubmitted(new StageInfo(i, 0, "collect", 1, List.of(), "", t, -1, null,
                List.of())));
        p.offer(new SparkEvent.StageCompleted(new StageInfo(i, 0, "collect", 1, List.of(), "", t, t + 30, null,
                List.of())));
        p.offer(new SparkEvent.JobEnd(i, t + 31, true, null));
    }
}
