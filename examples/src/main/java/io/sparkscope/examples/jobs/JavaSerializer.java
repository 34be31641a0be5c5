package io.sparkscope.examples.jobs;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

import java.util.List;

/**
 * Java serialization on an RDD workload: Spark's default {@code spark.serializer} writes every shuffled and cached
 * object with Java serialization, larger and slower than Kryo ({@code SerializerConfig}). Compare it with
 * {@code serializer-kryo}, the same workload with Kryo: less shuffle data and less task time. Fix:
 * {@code spark.serializer=org.apache.spark.serializer.KryoSerializer} (and register your classes).
 */
public final class JavaSerializer implements ExampleJob {
    @Override
    public String name() {
        return "serializer-java";
    }

    @Override
    public String title() {
        return "an RDD workload with Java serialization";
    }

    @Override
    public List<String> expectedFindings() {
        return List.of("SerializerConfig");
    }

    @Override
    public boolean quick() {
        return true;
    }

    @Override
    public void run(JobContext ctx) {
        SparkSession spark = ctx.start(ctx.conf(name())
                .set("spark.serializer", "org.apache.spark.serializer.JavaSerializer"));
        try {
            SerializerWorkload.run(JavaSparkContext.fromSparkContext(spark.sparkContext()));
        } finally {
            spark.stop();
        }
    }
}
