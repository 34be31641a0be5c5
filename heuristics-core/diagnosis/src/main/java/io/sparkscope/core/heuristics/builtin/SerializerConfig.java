package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
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
                and is never told to change it.
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
        }
        // Java serialization costs per record (CPU) and per byte (size); compressed shuffle bytes understate the
        // second, so either measure is enough.
        boolean matters = rddBytes > 0 && rddBytes >= cfg.bytes(ID + ".minRddBytes")
                || rddRecords > 0 && rddRecords >= cfg.count(ID + ".minRddRecords");
        if (!matters) {
            return List.of();
        }
        SettingAdvice kryo = conf.advise("spark.serializer", KRYO,
                "RDD stages shuffled or spilled " + Units.bytes(rddBytes) + " with Java serialization");
        return List.of(Finding.builder(ID, Severity.LOW)
                .title("Java serializer for " + Units.bytes(rddBytes) + " of RDD data")
                .message("spark.serializer is " + serializer + (conf.isSet("spark.serializer") ? "" : " (Spark's"
                        + " default)") + ", and RDD stages wrote " + Units.bytes(rddBytes) + " through it (shuffle"
                        + " writes and disk spills of " + rddStages.size() + (rddStages.size() == 1 ? " stage" : " stages")
                        + ", " + Units.count(rddRecords) + " shuffled records). Java serialization is slower and larger"
                        + " than Kryo for such data.")
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
