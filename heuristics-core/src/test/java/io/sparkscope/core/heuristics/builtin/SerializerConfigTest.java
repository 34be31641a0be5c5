package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.JobSummary.JobStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sparkscope.core.heuristics.Check.run;
import static io.sparkscope.core.heuristics.Check.silent;
import static io.sparkscope.core.heuristics.Check.single;
import static io.sparkscope.core.heuristics.SnapshotBuilder.app;
import static io.sparkscope.core.heuristics.SnapshotBuilder.task;
import static io.sparkscope.core.heuristics.Units.GiB;
import static io.sparkscope.core.heuristics.Units.MiB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SerializerConfig is only ever LOW: it must not turn a healthy SQL application red. */
class SerializerConfigTest {
    private final SerializerConfig heuristic = new SerializerConfig();

    @Test
    void javaSerializerIsLow() {
        Finding f = single(Severity.LOW, run(heuristic, app().sqlJob(0, 0).build()));
        assertEquals(true, f.details().get("pureSql"));
        assertTrue(f.recommendation().contains("org.apache.spark.serializer.KryoSerializer"));
    }

    @Test
    void kryoIsSilent() {
        silent(run(heuristic, app().conf("spark.serializer", "org.apache.spark.serializer.KryoSerializer").build()));
    }
}
