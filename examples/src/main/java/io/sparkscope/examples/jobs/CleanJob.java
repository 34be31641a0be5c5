package io.sparkscope.examples.jobs;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.util.List;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sum;

/**
 * A clean, well-tuned job: Kryo, AQE on, the small dimension table broadcast, evenly spread keys and about two
 * tasks per core, each doing a meaningful amount of work. Sparkscope should find nothing serious here (no HIGH
 * finding): the reference to compare the problem jobs with.
 */
public final class CleanJob implements ExampleJob {
    @Override
    public String name() {
        return "clean";
    }

    @Override
    public String title() {
        return "a well-tuned join and aggregation (the reference)";
    }

    @Override
    public List<String> expectedFindings() {
        return List.of();
    }

    @Override
    public boolean quick() {
        return true;
    }

    @Override
    public void run(JobContext ctx) {
        SparkSession spark = ctx.start(ctx.conf(name())
                .set("spark.sql.adaptive.enabled", "true")
                .set("spark.sql.shuffle.partitions", "4"));
        try {
            Dataset<Row> sales = spark.range(0, 400_000, 1, 4)
                    .selectExpr("id", "id % 1000 AS productId", "(id % 97) * 1.5 AS amount");
            Dataset<Row> products = spark.range(0, 1000, 1, 1)
                    .selectExpr("id AS productId", "concat('category-', id % 20) AS category");
            sales.join(broadcast(products), "productId")
                    .groupBy(col("category")).agg(sum("amount").as("revenue"))
                    .orderBy(col("revenue").desc())
                    .collectAsList();
        } finally {
            spark.stop();
        }
    }
}
