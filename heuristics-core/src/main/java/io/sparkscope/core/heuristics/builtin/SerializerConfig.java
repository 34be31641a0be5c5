package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;

import java.util.List;

/**
 * Java serialization is slow and bulky for RDD data (thesis §2.1.5, §4.2.5). Only ever LOW: DataFrame/SQL work uses
 * Spark's own encoders and gains little from Kryo, so this must not turn a healthy application red.
 */
public final class SerializerConfig implements Heuristic {
    public static final String ID = "SerializerConfig";
    static final String KRYO = "org.apache.spark.serializer.KryoSerializer";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        String serializer = app.config().getOrDefault("spark.serializer", "org.apache.spark.serializer.JavaSerializer");
        if (serializer.contains("Kryo")) {
            return List.of();
        }
        boolean pureSql = !app.jobs().isEmpty() && app.jobs().stream().allMatch(j -> j.sqlExecutionId() >= 0);
        return List.of(Finding.builder(ID, Severity.LOW)
                .title("Java serializer in use")
                .message("spark.serializer is " + serializer + ". Java serialization is slower and larger than Kryo"
                        + " for RDD data that is shuffled, cached serialized or spilled"
                        + (pureSql ? "; all jobs here are SQL/DataFrame jobs, which use their own encoders, so the"
                        + " gain is likely small." : "."))
                .recommendation("Set spark.serializer=" + KRYO + " (and register your classes with"
                        + " spark.kryo.classesToRegister for the smallest output).")
                .configKeys("spark.serializer")
                .detail("serializer", serializer)
                .detail("pureSql", pureSql)
                .build());
    }

}
