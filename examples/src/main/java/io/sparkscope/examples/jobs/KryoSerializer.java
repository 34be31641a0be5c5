package io.sparkscope.examples.jobs;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

import java.util.List;

/**
 * The fix for {@code serializer-java}: the same RDD workload with Kryo and the event class registered. Compare the
 * two applications' shuffle bytes and task time.
 */
public final class KryoSerializer implements ExampleJob {
    @Override
    public String name() {
        return "serializer-kryo";
    }

    @Override
    public String title() {
        return "the same RDD workload with Kryo (compare with serializer-java)";
    }

    @Override
    public List<String> expectedFindings() {
        return List.of();
    }

    @Override
    public void run(JobContext ctx) {
        SparkSession spark = ctx.start(ctx.conf(name())
                .set("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .set("spark.kryo.classesToRegister", SerializerWorkload.Event.class.getName()));
        try {
            SerializerWorkload.run(JavaSparkContext.fromSparkContext(spark.sparkContext()));
        } finally {
            spark.stop();
        }
    }
}
