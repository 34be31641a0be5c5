package io.sparkscope.examples.jobs;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/**
 * A driver-heavy application: it {@code collect()}s 200 000 rows and then processes them in a loop on the driver
 * for about 45 s while the executors sit idle ({@code DriverTime}, which judges applications of at least 60 s, so
 * this is the demo's one long job). Fix: keep the work distributed (express it as DataFrame operations or
 * {@code mapPartitions}), collect only small results, and release executors while the driver works (dynamic
 * allocation).
 */
public final class DriverHeavy implements ExampleJob {
    static final long DRIVER_WORK_MS = 45_000;

    @Override
    public String name() {
        return "driver-heavy";
    }

    @Override
    public String title() {
        return "collect() then a long loop on the driver (about a minute)";
    }

    @Override
    public List<String> expectedFindings() {
        return List.of("DriverTime");
    }

    @Override
    public void run(JobContext ctx) throws Exception {
        SparkSession spark = ctx.start(ctx.conf(name()));
        try {
            List<Row> rows = spark.range(0, 200_000, 1, 4)
                    .selectExpr("id", "concat('order-', id) AS orderId", "id % 97 AS store").collectAsList();
            // Driver-side "enrichment" of every row, repeated in passes (think: a per-row lookup or a local model).
            // Sized by time rather than by row count so the demo takes the same time on fast and slow machines.
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            long deadline = System.currentTimeMillis() + DRIVER_WORK_MS;
            long checksum = 0;
            int passes = 0;
            while (System.currentTimeMillis() < deadline) {
                for (Row r : rows) {
                    byte[] d = sha.digest(r.getString(1).getBytes(StandardCharsets.UTF_8));
                    checksum += d[0];
                }
                passes++;
            }
            System.out.println("driver passes: " + passes + ", checksum " + HexFormat.of().toHexDigits(checksum));
            spark.createDataFrame(rows.subList(0, 1000), rows.get(0).schema()).groupBy("store").count()
                    .collectAsList();
        } finally {
            spark.stop();
        }
    }
}
