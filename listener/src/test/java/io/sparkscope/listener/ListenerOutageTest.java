package io.sparkscope.listener;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.SnapshotReader;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The database is away when the application starts, comes, goes away mid-run and comes back: the Spark jobs run
 * normally, nothing reaches Spark, and every row arrives exactly once (checked in the database).
 */
class ListenerOutageTest {

    @Test
    void databaseDownAtStartAndLostMidRunLosesNothing(@TempDir Path tmp) throws Exception {
        int port = freePort();
        Path dataDir = tmp.resolve("pgdata");
        Path spool = tmp.resolve("spool");
        String url = "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres&connectTimeout=2";
        SparkSession spark = LocalSpark.start("outage", Map.of(
                "spark.sparkscope.jdbc.url", url,
                "spark.sparkscope.spool.dir", spool.toString(),
                "spark.sparkscope.flush.intervalMs", "300",
                "spark.sparkscope.retry.maxBackoffMs", "1000"));
        String appId = spark.sparkContext().applicationId();
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<Integer> data = java.util.stream.IntStream.range(0, 1000).boxed().toList();

        // 1. database absent: the job runs as usual, the snapshot waits in the spool
        assertEquals(1000, jsc.parallelize(data, 4).count());
        waitFor("snapshot spooled while the database is down", Duration.ofSeconds(30),
                () -> spoolFiles(spool) > 0);

        // 2. database comes up: the running application appears
        EmbeddedPostgres pg = start(port, dataDir);
        DataSource ds = pg.getPostgresDatabase();
        waitFor("running application delivered", Duration.ofSeconds(60),
                () -> read(ds, appId).map(s -> !s.complete()).orElse(false));

        // 3. database lost mid-run, then back
        pg.close();
        assertEquals(1000, jsc.parallelize(data, 5).count());
        Thread.sleep(1500);
        pg = start(port, dataDir);
        DataSource ds2 = pg.getPostgresDatabase();
        assertEquals(1000, jsc.parallelize(data, 6).count());
        spark.stop();

        try {
            waitFor("final snapshot delivered", Duration.ofSeconds(60),
                    () -> read(ds2, appId).map(AppSnapshot::complete).orElse(false));
            AppSnapshot stored = read(ds2, appId).orElseThrow();
            assertEquals(3, stored.jobs().size(), "all three jobs recorded");
            assertEquals(List.of(4, 5, 6), stored.stages().stream().map(s -> s.numTasks()).toList());
            assertEquals(15, stored.totalTasks());
            // natural keys: no duplicates anywhere
            assertEquals(1, count(ds2, "select count(*) from application"));
            assertEquals(3, count(ds2, "select count(*) from job"));
            assertEquals(3, count(ds2, "select count(*) from stage_attempt"));
            assertEquals(15, count(ds2, "select count(*) from task"));
            waitFor("spool emptied after delivery", Duration.ofSeconds(30), () -> spoolFiles(spool) == 0);
        } finally {
            pg.close();
        }
    }

    /** Same port and data directory each time; never cleaned, so a restart keeps what was written. */
    static EmbeddedPostgres start(int port, Path dataDir) throws IOException {
        return EmbeddedPostgres.builder().setPort(port).setDataDirectory(dataDir).setCleanDataDirectory(false)
                .start();
    }

    static Optional<AppSnapshot> read(DataSource ds, String appId) {
        try {
            return SnapshotReader.read(ds, appId, null);
        } catch (Exception e) {
            return Optional.empty(); // database or schema not there yet
        }
    }

    private static long count(DataSource ds, String sql) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static long spoolFiles(Path spool) {
        try (var s = Files.list(spool)) {
            return s.filter(p -> p.toString().endsWith(".snapshot.json.gz")).count();
        } catch (IOException e) {
            return 0;
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static void waitFor(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(200);
        }
        fail("timed out waiting for: " + what);
    }
}
