package io.sparkscope.core.analysis.prediction;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.model.AppSnapshot;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Key-stage prediction on synthetic runs whose stage times are known functions of the input size. */
class KeyStagePredictorTest {
    private static final long GB = 1L << 30;

    /** One stage of a synthetic run: the job it belongs to (0-based) and its name and time. */
    record S(int job, String name, long ms) {
    }

    /** A run whose stages run back to back, one job after the other, plus {@code overheadMs} of driver time. */
    static AppSnapshot run(String id, long inputBytes, long overheadMs, S... stages) {
        SnapshotBuilder b = SnapshotBuilder.dagApp("etl").id(id).executors(2, 2);
        long t = overheadMs / 2;
        int stageId = 0;
        int lastJob = -1;
        List<Integer> jobStages = new ArrayList<>();
        long jobStart = t;
        for (int i = 0; i <= stages.length; i++) {
            boolean jobEnds = i == stages.length || stages[i].job() != lastJob;
            if (jobEnds && lastJob >= 0) {
                b.job(lastJob, jobStart, t, jobStages.toArray(Integer[]::new));
                jobStages.clear();
                jobStart = t;
            }
            if (i == stages.length) {
                break;
            }
            S s = stages[i];
            lastJob = s.job();
            jobStages.add(stageId);
            b.stage(stageId, s.job()).name(s.name()).window(t, t + s.ms()).tasks(s.ms())
                    .inputBytes(stageId == 0 ? inputBytes : 0).done();
            t += s.ms();
            stageId++;
        }
        return b.durationMs(t + overheadMs - overheadMs / 2).build();
    }

    /** read = 1 s + 4 s/GB (key), agg = 2 s, write = 0.5 s: exactly linear, 3 s overhead. */
    static AppSnapshot linearRun(int gb) {
        return run("app-" + gb, gb * GB, 3_000, new S(0, "read", 1_000 + 4_000L * gb), new S(0, "agg", 2_000),
                new S(1, "write", 500));
    }

    @Test
    void exactlyLinearKeyStageIsPredictedExactly() {
        List<AppSnapshot> runs = List.of(linearRun(1), linearRun(2), linearRun(3), linearRun(4));
        Prediction p = KeyStagePredictor.predict(runs, 6 * GB);

        assertEquals(1, p.keyStages().size());
        KeyStage read = p.keyStages().get(0);
        assertEquals(new StageKey(0, "read", 0), read.key());
        assertEquals(1.0, read.fit().r2(), 1e-12);
        assertEquals(4_000.0 / GB, read.fit().slope(), 1e-15);
        assertEquals(1_000, read.fit().intercept(), 1e-6);
        assertEquals(25_000, read.predictedMs(), 1e-6);
        // 25 s read + 2 s agg + 0.5 s write + 3 s overhead, as a run at 6 GB would take.
        assertEquals(30_500, p.predictedMs());
        assertEquals(linearRun(6).durationMs(), p.predictedMs());
        assertEquals(3_000, p.overheadMs(), 1e-9);
        assertEquals((11_000 + 2_000 + 500) / 3.0, p.meanStageMs(), 1e-9); // T_mean
        assertEquals(12_000, p.meanChangeMs(), 1e-6); // D_mean: 4 s/GB over 3 GB
        assertEquals(List.of(new StageKey(0, "agg", 0), new StageKey(1, "write", 0)),
                p.otherStages().stream().map(StageMean::key).toList());
        assertTrue(p.reliable(), p.warnings().toString());
        assertEquals(1 * GB, p.minInputBytes());
        assertEquals(4 * GB, p.maxInputBytes());
    }

    @Test
    void aCandidateChangingLessThanTheMeanChangeIsNotKey() {
        // read changes 12 s over the range, shuffle 9 s: D_mean = 10.5 s, so only read is key (Algorithm 1, step 4).
        List<AppSnapshot> runs = new ArrayList<>();
        for (int gb = 1; gb <= 4; gb++) {
            runs.add(run("app-" + gb, gb * GB, 0, new S(0, "read", 1_000 + 4_000L * gb),
                    new S(0, "shuffle", 3_000 + 3_000L * gb), new S(0, "agg", 2_000), new S(0, "write", 500)));
        }
        Prediction p = KeyStagePredictor.predict(runs, 4 * GB);
        assertEquals(List.of(new StageKey(0, "read", 0)), p.keyStages().stream().map(KeyStage::key).toList());
        assertEquals(10_500, p.meanChangeMs(), 1e-6);
        StageMean shuffle = p.otherStages().get(0);
        assertEquals("shuffle", shuffle.key().name());
        assertEquals(10_500, shuffle.meanMs(), 1e-9);
        assertEquals(17_000 + 10_500 + 2_000 + 500, p.predictedMs());
    }

    @Test
    void noisyRunsFitWellAndPredictCloseToTheLine() {
        long[] noise = {300, -250, 200, -300, 250, -200};
        List<AppSnapshot> runs = new ArrayList<>();
        for (int gb = 1; gb <= 6; gb++) {
            runs.add(run("app-" + gb, gb * GB, 3_000, new S(0, "read", 1_000 + 4_000L * gb + noise[gb - 1]),
                    new S(0, "agg", 2_000 + noise[gb - 1] / 10), new S(1, "write", 500)));
        }
        Prediction p = KeyStagePredictor.predict(runs, 10 * GB);
        assertEquals(1, p.keyStages().size());
        assertTrue(p.keyStages().get(0).fit().r2() > 0.99, "R² " + p.keyStages().get(0).fit().r2());
        double truth = 1_000 + 40_000 + 2_000 + 500 + 3_000;
        assertEquals(truth, p.predictedMs(), 0.02 * truth);
        assertTrue(p.reliable(), p.warnings().toString());
    }

    @Test
    void aPoorFitIsFlaggedNotHidden() {
        long[] read = {5_000, 20_000, 6_000, 22_000, 9_000};
        List<AppSnapshot> runs = new ArrayList<>();
        for (int gb = 1; gb <= 5; gb++) {
            runs.add(run("app-" + gb, gb * GB, 1_000, new S(0, "read", read[gb - 1]), new S(0, "agg", 1_000)));
        }
        Prediction p = KeyStagePredictor.predict(runs, 5 * GB);
        assertEquals(1, p.keyStages().size());
        assertTrue(p.keyStages().get(0).fit().r2() < KeyStagePredictor.MIN_R2);
        assertTrue(p.warnings().contains(PredictionWarning.POOR_FIT), p.warnings().toString());
        assertFalse(p.reliable());
    }

    @Test
    void aSizeBeyondTwiceTheLargestSeenIsFlaggedAsExtrapolation() {
        List<AppSnapshot> runs = List.of(linearRun(1), linearRun(2), linearRun(3), linearRun(4));
        Prediction p = KeyStagePredictor.predict(runs, 9 * GB);
        assertEquals(linearRun(9).durationMs(), p.predictedMs()); // still the line's value …
        assertEquals(List.of(PredictionWarning.EXTRAPOLATION), p.warnings()); // … but not silently
        assertTrue(KeyStagePredictor.predict(runs, 8 * GB).reliable());
    }

    @Test
    void runsWithDifferentStageCountsAreMatchedByJobAndName() {
        // The 3 GB and 4 GB runs have an extra "dedupe" stage in job 0, inserted before "agg"; stage ids shift, the
        // keys do not. A missing stage counts 0 ms in that run.
        List<AppSnapshot> runs = new ArrayList<>();
        for (int gb = 1; gb <= 4; gb++) {
            List<S> stages = new ArrayList<>(List.of(new S(0, "read", 1_000 + 4_000L * gb)));
            if (gb >= 3) {
                stages.add(new S(0, "dedupe", 400));
            }
            stages.add(new S(0, "agg", 2_000));
            stages.add(new S(1, "write", 500));
            runs.add(run("app-" + gb, gb * GB, 3_000, stages.toArray(S[]::new)));
        }
        Prediction p = KeyStagePredictor.predict(runs, 5 * GB);
        assertEquals(new StageKey(0, "read", 0), p.keyStages().get(0).key());
        assertEquals(1.0, p.keyStages().get(0).fit().r2(), 1e-12);
        StageMean dedupe = p.otherStages().stream().filter(s -> s.key().name().equals("dedupe")).findFirst().orElseThrow();
        assertEquals(200, dedupe.meanMs(), 1e-9);
        assertEquals(2, dedupe.runs());
        StageMean agg = p.otherStages().stream().filter(s -> s.key().name().equals("agg")).findFirst().orElseThrow();
        assertEquals(2_000, agg.meanMs(), 1e-9);
        // The overhead absorbs nothing of the extra stage: each run's duration is its stages + 3 s.
        assertEquals(3_000, p.overheadMs(), 1e-9);
        assertEquals(21_000 + 200 + 2_000 + 500 + 3_000, p.predictedMs());
        assertEquals(List.of(PredictionWarning.STAGES_DIFFER), p.warnings());
    }

    @Test
    void repeatedStageNamesInOneJobAreToldApartByOccurrence() {
        List<AppSnapshot> runs = new ArrayList<>();
        for (int gb = 1; gb <= 3; gb++) {
            runs.add(run("app-" + gb, gb * GB, 0, new S(0, "map", 10_000L * gb), new S(0, "map", 1_000)));
        }
        Prediction p = KeyStagePredictor.predict(runs, 2 * GB);
        assertEquals(new StageKey(0, "map", 0), p.keyStages().get(0).key());
        assertEquals(new StageKey(0, "map", 1), p.otherStages().get(0).key());
        assertEquals(21_000, p.predictedMs());
    }

    @Test
    void inputSizesCanBeGivenWhenSparkMeasuredNone() {
        List<TrainingRun> runs = new ArrayList<>();
        for (int gb = 1; gb <= 3; gb++) {
            runs.add(new TrainingRun(run("app-" + gb, 0, 0, new S(0, "gen", 1_000L * gb), new S(0, "agg", 100)),
                    gb * 1_000_000L));
        }
        List<AppSnapshot> snapshots = runs.stream().map(TrainingRun::run).toList();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KeyStagePredictor.predict(snapshots, 5_000_000));
        assertTrue(e.getMessage().contains("predictWithSizes"), e.getMessage());
        assertEquals(5_100, KeyStagePredictor.predictWithSizes(runs, 5_000_000).predictedMs());
    }

    @Test
    void sameSizeEverywhereOrTooFewRunsIsSaid() {
        Prediction same = KeyStagePredictor.predict(List.of(linearRun(2), linearRun(2), linearRun(2)), 4 * GB);
        assertTrue(same.warnings().contains(PredictionWarning.INPUT_NOT_VARIED));
        assertTrue(same.warnings().contains(PredictionWarning.NO_KEY_STAGES));
        assertEquals(linearRun(2).durationMs(), same.predictedMs());
        Prediction two = KeyStagePredictor.predict(List.of(linearRun(1), linearRun(2)), 3 * GB);
        assertEquals(List.of(PredictionWarning.FEW_RUNS), two.warnings());
        assertEquals(linearRun(3).durationMs(), two.predictedMs());
    }

    @Test
    void runsOfDifferentApplicationsAreRefused() {
        AppSnapshot other = SnapshotBuilder.dagApp("other").stage(0, 0).window(0,
                10).tasks(10).inputBytes(5).done().build();
        assertThrows(IllegalArgumentException.class,
                () -> KeyStagePredictor.predict(List.of(linearRun(1), other), GB));
        assertThrows(IllegalArgumentException.class, () -> KeyStagePredictor.predict(List.of(), GB));
    }

    @Test
    void aSlowColdFirstRunIsLeftOutAndNamed() {
        // A recurring job at 1..6 GB; its first run (the oldest, 1 GB) was cold: every stage 5× slower, and 30 s of
        // start-up. The five warm runs follow read = 1 s + 4 s/GB exactly.
        List<AppSnapshot> runs = new ArrayList<>();
        runs.add(run("app-cold", GB, 30_000, new S(0, "read", 25_000), new S(0, "agg", 10_000),
                new S(1, "write", 2_500)));
        for (int gb = 2; gb <= 6; gb++) {
            runs.add(linearRun(gb));
        }
        long truth = linearRun(10).durationMs();
        Prediction naive = KeyStagePredictor.fitAll(runs.stream()
                .map(r -> new TrainingRun(r, KeyStagePredictor.inputBytes(r))).toList(), 10 * GB);
        assertTrue(Math.abs(naive.predictedMs() - truth) > 0.10 * truth,
                "the cold run drags a plain least-squares fit: " + naive.predictedMs() + " vs " + truth);

        Prediction p = KeyStagePredictor.predict(runs, 10 * GB);
        assertEquals(truth, p.predictedMs(), 0.02 * truth, "within 2 % once the cold run is left out");
        assertTrue(p.warnings().contains(PredictionWarning.OUTLIER_RUNS), p.warnings().toString());
        assertEquals(1, p.leftOut().size());
        Prediction.LeftOut cold = p.leftOut().get(0);
        assertEquals("app-cold", cold.appId());
        assertEquals(GB, cold.inputBytes());
        assertEquals(runs.get(0).durationMs(), cold.durationMs());
        assertEquals(linearRun(1).durationMs(), cold.expectedMs(), 0.05 * linearRun(1).durationMs(),
                "the warm runs predict what a warm 1 GB run takes");
        assertEquals(5, p.trainingRuns());
        assertTrue(p.reliable(), "a run left out is named, not a reason to distrust the number: " + p.warnings());
    }

    @Test
    void evenlyNoisyRunsAreAllKeptAndFewRunsAreNeverThinned() {
        long[] noise = {900, -700, 800, -900, 700, -800};
        List<AppSnapshot> runs = new ArrayList<>();
        for (int gb = 1; gb <= 6; gb++) {
            runs.add(run("app-" + gb, gb * GB, 3_000, new S(0, "read", 1_000 + 4_000L * gb + noise[gb - 1]),
                    new S(0, "agg", 2_000), new S(1, "write", 500)));
        }
        Prediction p = KeyStagePredictor.predict(runs, 8 * GB);
        assertTrue(p.leftOut().isEmpty(), "noise spread over every run is no outlier: " + p.leftOut());
        assertEquals(6, p.trainingRuns());
        // three runs: nothing is left out, however odd one looks
        List<AppSnapshot> three = List.of(run("app-cold", GB, 23_000, new S(0, "read", 15_000)), linearRun(2),
                linearRun(3));
        assertTrue(KeyStagePredictor.predict(three, 4 * GB).leftOut().isEmpty());
    }

    @Test
    void linearFitMatchesHandComputedValues() {
        LinearFit f = LinearFit.of(new double[]{1, 2, 3, 4}, new double[]{2, 4, 5, 8});
        // x̄ = 2.5, ȳ = 4.75, Sxy = 9.5, Sxx = 5 → slope 1.9, intercept 0; SS_res = 0.7, SS_tot = 18.75.
        assertEquals(1.9, f.slope(), 1e-12);
        assertEquals(0.0, f.intercept(), 1e-12);
        assertEquals(1 - 0.7 / 18.75, f.r2(), 1e-12);
    }
}
