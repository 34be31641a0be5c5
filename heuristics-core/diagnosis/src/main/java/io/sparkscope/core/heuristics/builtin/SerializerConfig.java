package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Java serialization is slow and bulky for RDD data: it is what {@code spark.serializer} writes when RDD records are
 * shuffled, cached serialized or spilled. DataFrame/SQL work uses Spark's own binary format and gains nothing, so
 * this speaks only where RDD stages (outside any SQL execution) moved a size that matters through the serializer: at
 * least {@code minRddBytes} of shuffle writes and disk spills, or {@code minRddRecords} shuffled records; elsewhere
 * the setting does not matter. Only ever LOW.
 */
public final class SerializerConfig implements Heuristic {
    public static final String ID = "SerializerConfig";
    static final String KRYO = "org.apache.spark.serializer.KryoSerializer";
    /**
     * The share of the shuffle's I/O time Kryo saves: its output is typically half the size of Java serialization's
     * or less (Spark's tuning guide: "often as much as 10x" faster and more compact), and I/O time follows bytes.
     */
    static final double IO_SAVED_SHARE = 0.5;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("minRddBytes", "64m",
                        "RDD stages shuffling or spilling at least this through a non-Kryo serializer are LOW"),
                new Threshold("minRddRecords", "100000",
                        "or shuffling at least this many records"));
    }

    @Override
    public String description() {
        return """
                `spark.serializer` not Kryo and RDD stages (jobs outside any SQL execution) wrote ≥ `minRddBytes`
                64m through it (shuffle writes and disk spills) or shuffled ≥ `minRddRecords` 100 000 records → LOW
                only, because only RDD data goes through the serializer; SQL/DataFrame work uses Spark's own format
                and is never told to change it. Impact: half the RDD stages' shuffle-write and fetch-wait time (a
                lower bound: serialization CPU is not timed by Spark); without such times, none, and the message
                says it cannot be estimated.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        SparkSettings conf = SparkSettings.of(app);
        String serializer = conf.current("spark.serializer").value();
        if (serializer.contains("Kryo")) {
            return List.of();
        }
        Map<String, Facts.StageKind> kinds = Facts.stageKinds(app);
        long rddBytes = 0;
        long rddRecords = 0;
        long ioTaskMs = 0;
        long ioWallMs = 0;
        List<String> rddStages = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            if (kinds.get(s.key()) != Facts.StageKind.RDD || s.totals() == null) {
                continue;
            }
            long bytes = s.totals().get(TaskMetric.SHUFFLE_BYTES_WRITTEN) + s.totals().get(TaskMetric.DISK_BYTES_SPILLED);
            long records = s.totals().get(TaskMetric.SHUFFLE_RECORDS_WRITTEN);
            if (bytes > 0 || records > 0) {
                rddBytes += bytes;
                rddRecords += records;
                rddStages.add(s.key());
            }
            // The shuffle's measured I/O: writing (ns) and waiting for fetches (ms). Both scale with the bytes the
            // serializer produced.
            long io = Math.round(s.totals().get(TaskMetric.SHUFFLE_WRITE_TIME) / 1e6)
                    + s.totals().get(TaskMetric.SHUFFLE_FETCH_WAIT_TIME);
            if (io > 0) {
                long saved = Math.round(io * IO_SAVED_SHARE);
                ioTaskMs += saved;
                ioWallMs += WallTime.ofStage(app, s, saved);
            }
        }
        // Java serialization costs per record (CPU) and per byte (size); compressed shuffle bytes understate the
        // second, so either measure is enough.
        boolean matters = rddBytes > 0 && rddBytes >= cfg.bytes(ID + ".minRddBytes")
                || rddRecords > 0 && rddRecords >= cfg.count(ID + ".minRddRecords");
        if (!matters) {
            return List.of();
        }
        // Spark does not time serialization itself (it is inside the tasks' run time), so only the shuffle I/O that
        // smaller output would shorten is estimated: a lower bound, said as such.
        Impact impact = ioTaskMs > 0 ? Impact.of(ioWallMs, ioTaskMs, "half the RDD stages' shuffle-write and"
                + " fetch-wait time (Kryo output is about half as large); serialization CPU time is not measured, so"
                + " the saving may be larger") : Impact.NONE;
        String estimate = impact.saves() ? "" : " Spark does not time serialization and these stages measured no"
                + " shuffle I/O, so the saving cannot be estimated from the log.";
        SettingAdvice kryo = conf.advise("spark.serializer", KRYO,
                "RDD stages shuffled or spilled " + Units.bytes(rddBytes) + " with Java serialization");
        return List.of(Finding.builder(ID, Severity.LOW)
                .title("Java serializer for " + Units.bytes(rddBytes) + " of RDD data")
                .message("spark.serializer is " + serializer + (conf.isSet("spark.serializer") ? "" : " (Spark's"
                        + " default)") + ", and RDD stages wrote " + Units.bytes(rddBytes) + " through it (shuffle"
                        + " writes and disk spills of " + rddStages.size() + (rddStages.size() == 1 ? " stage" : " stages")
                        + ", " + Units.count(rddRecords) + " shuffled records). Java serialization is slower and larger"
                        + " than Kryo for such data." + estimate)
                .impact(impact)
                .recommendation("Use Kryo: " + kryo.phrase() + ", and register your classes with"
                        + " spark.kryo.classesToRegister for the smallest output. DataFrame/SQL stages are not"
                        + " affected either way.")
                .advise(kryo)
                .stages(rddStages.subList(0, Math.min(20, rddStages.size())))
                .detail("serializer", serializer)
                .detail("rddSerializedBytes", rddBytes)
                .detail("rddShuffleRecords", rddRecords)
                .detail("rddStages", rddStages.size())
                .build());
    }
}
