package io.sparkscope.examples.jobs;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.sum;

/**
 * A recurring job: the same application ({@code recurring-etl}) run on inputs of growing size, as a nightly ETL
 * whose input grows, so the history and prediction views have a series: read a CSV file (scale × 150 000 rows),
 * parse, filter, aggregate per customer, join with a small table and write Parquet. Its scan-and-aggregate stage
 * grows with the input, the rest stays constant. Not a problem job.
 */
public final class RecurringEtl implements ExampleJob {
    static final int ROWS_PER_SCALE = 150_000;

    @Override
    public String name() {
        return "recurring-etl";
    }

    @Override
    public String title() {
        return "the same ETL at 4 growing input sizes (history and prediction)";
    }

    @Override
    public List<String> expectedFindings() {
        return List.of();
    }

    @Override
    public List<Integer> scales() {
        return List.of(1, 2, 3, 4);
    }

    @Override
    public void run(JobContext ctx) throws IOException {
        Path input = input(ctx.workDir().resolve("input"), ctx.scale());
        Path output = ctx.workDir().resolve("output").resolve("recurring-etl-" + ctx.scale());
        SparkSession spark = ctx.start(ctx.conf(name())
                .set("spark.sql.files.maxPartitionBytes", "4m")
                .set("spark.sparkscope-demo.inputRows", Long.toString((long) ctx.scale() * ROWS_PER_SCALE)));
        try {
            Dataset<Row> orders = spark.read().option("header", "true").schema(
                            "orderId LONG, customerId LONG, product STRING, quantity INT, price DOUBLE, ts STRING")
                    .csv(input.toUri().toString());
            Dataset<Row> customers = spark.range(0, 5_000, 1, 1)
                    .selectExpr("id AS customerId", "concat('segment-', id % 7) AS segment");
            orders.filter(col("quantity").gt(0))
                    .withColumn("revenue", col("quantity").multiply(col("price")))
                    .groupBy("customerId").agg(sum("revenue").as("revenue"), count("*").as("orders"))
                    .join(customers, "customerId")
                    .write().mode("overwrite").parquet(output.toUri().toString());
        } finally {
            spark.stop();
        }
    }

    /** The input file for a scale, written once (plain Java, outside Spark) and reused by later runs. */
    static Path input(Path dir, int scale) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve("orders-" + scale + ".csv");
        if (Files.exists(file)) {
            return file;
        }
        Path tmp = Files.createTempFile(dir, "orders-", ".tmp");
        long rows = (long) scale * ROWS_PER_SCALE;
        try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write("orderId,customerId,product,quantity,price,ts\n");
            for (long i = 0; i < rows; i++) {
                w.write(i + "," + (i * 7919) % 5_000 + ",product-" + (i % 3_000) + "," + (i % 13) + ","
                        + (i % 1000) / 10.0 + ",2026-11-" + (1 + i % 28) + "T10:" + (i % 60) + ":00Z\n");
            }
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }
}
