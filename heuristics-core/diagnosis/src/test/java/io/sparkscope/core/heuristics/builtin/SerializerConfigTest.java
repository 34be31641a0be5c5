package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.model.JobSummary.JobStatus;
import org.junit.jupiter.api.Test;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static io.sparkscope.core.testing.SnapshotBuilder.task;
import static io.sparkscope.core.text.Units.MiB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SerializerConfig is only ever LOW, and only where the serializer matters: RDD stages that shuffled or spilled a
 * size worth the change. A SQL application, or an RDD one moving a few megabytes, hears nothing.
 */
class SerializerConfigTest {
    private final SerializerConfig heuristic = new SerializerConfig();

    @Test
    void rddShuffleOfAHundredMegabytesWithJavaSerializationIsLow() {
        Finding f = single(Severity.LOW, run(heuristic, app().job(0, JobStatus.SUCCEEDED, null)
                .stage(0).tasks(10, i -> task().shuffleWrite(10 * MiB)).done().build()));
        assertEquals(100 * MiB, f.details().get("rddSerializedBytes"));
        SettingAdvice a = f.adviceFor("spark.serializer");
        assertEquals(SerializerConfig.KRYO, a.recommendedValue());
        assertEquals(SettingAdvice.ValueSource.DEFAULT, a.currentSource());
        assertTrue(f.recommendation().contains(a.phrase()), f.recommendation());
    }

    @Test
    void manyShuffledRddRecordsCountEvenWhenTheirCompressedBytesAreFew() {
        // 600 000 objects shuffled in 14 MB of compressed output: each record still went through Java serialization
        single(Severity.LOW, run(heuristic, app().job(0, JobStatus.SUCCEEDED, null)
                .stage(0).tasks(8, i -> task().shuffleWrite(2 * MiB)
                        .metric(io.sparkscope.core.event.TaskMetric.SHUFFLE_RECORDS_WRITTEN, 75_000)).done().build()));
    }

    @Test
    void theSavingIsHalfTheRddShufflesMeasuredIoAndSaysWhatItLeavesOut() {
        // A map stage writing 8 × 2 MiB in 8 × 200 ms, and its reducer waiting 8 × 50 ms for the blocks: 2 s of
        // shuffle I/O, half of which smaller Kryo output would save.
        var app = app().job(0, JobStatus.SUCCEEDED, null)
                .stage(0).tasks(8, i -> task().shuffleWrite(2 * MiB)
                        .metric(io.sparkscope.core.event.TaskMetric.SHUFFLE_RECORDS_WRITTEN, 75_000)
                        .metric(io.sparkscope.core.event.TaskMetric.SHUFFLE_WRITE_TIME, 200_000_000L)).done()
                // the reducer starts when the map stage has ended, as Spark runs them
                .stage(1).startAt(1_000).tasks(8, i -> task().shuffleRead(2 * MiB)
                        .metric(io.sparkscope.core.event.TaskMetric.SHUFFLE_FETCH_WAIT_TIME, 50)).done()
                .build();
        Finding f = single(Severity.LOW, run(heuristic, app));
        assertEquals(1_000, f.impact().taskMs(), f.impact().toString());
        // each stage's tasks ran side by side (1 s each), so 1/8 of each stage's saving is wall time
        assertEquals(125, f.impact().wallMs(), f.impact().toString());
        assertTrue(f.impact().basis().contains("serialization CPU time is not measured"), f.impact().basis());
        // without shuffle timings there is nothing to estimate from, and the finding says so
        Finding untimed = single(Severity.LOW, run(heuristic, app().job(0, JobStatus.SUCCEEDED, null)
                .stage(0).tasks(10, i -> task().shuffleWrite(10 * MiB)).done().build()));
        assertEquals(false, untimed.impact().saves());
        assertTrue(untimed.message().contains("cannot be estimated"), untimed.message());
    }

    @Test
    void sqlStagesAndSmallRddDataAreSilent() {
        // the same shuffle in a SQL execution: Spark's own format, the serializer does not apply
        silent(run(heuristic, app().sqlJob(0, 0).stage(0).tasks(10, i -> task().shuffleWrite(10 * MiB)).done()
                .build()));
        // an RDD job that shuffles 10 MiB: not a size that matters
        silent(run(heuristic, app().job(0, JobStatus.SUCCEEDED, null)
                .stage(0).tasks(10, i -> task().shuffleWrite(MiB)).done().build()));
        silent(run(heuristic, app().sqlJob(0, 0).build()));
    }

    @Test
    void kryoIsSilent() {
        silent(run(heuristic, app().conf("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .job(0, JobStatus.SUCCEEDED, null).stage(0).tasks(10, i -> task().shuffleWrite(10 * MiB)).done()
                .build()));
    }
}
