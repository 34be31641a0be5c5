package io.sparkscope.listener;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.Spool;
import io.sparkscope.store.SpoolTarget;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

import static io.sparkscope.listener.ListenerOutageTest.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two listeners on two databases share one spool directory: a snapshot spooled while database A was away is
 * delivered to A when A is back, and never to B, although B's listener ran while the file sat in the spool.
 */
class SharedSpoolTest {

    @Test
    void aSpooledSnapshotReachesOnlyTheDatabaseItWasMeantFor(@TempDir Path tmp) throws Exception {
        Path spool = tmp.resolve("spool");
        int portA = freePort();
        String urlA = "jdbc:postgresql://localhost:" + portA + "/postgres?user=postgres&connectTimeout=2";
        try (EmbeddedPostgres b = EmbeddedPostgres.builder().start()) {
            String urlB = "jdbc:postgresql://localhost:" + b.getPort() + "/postgres?user=postgres";
            DataSource dsB = b.getPostgresDatabase();

            // 1. application 1 records into A, which is away: its final snapshot waits in the spool
            String app1 = run("for-a", urlA, spool, "spark.custom.apikey", "SpooledApiKey1");
            Spool spoolOfA = new Spool(spool, 1 << 30, SpoolTarget.of(urlA, null), w -> { });
            List<Path> waiting = spoolOfA.files();
            assertEquals(1, waiting.size(), "application 1 is spooled for A");
            String spooledText = gunzip(waiting.get(0));
            assertEquals("SPARKSCOPE-SPOOL 2 target=" + SpoolTarget.of(urlA, null),
                    spooledText.substring(0, spooledText.indexOf('\n')), "the target is a hash, not the URL");
            assertFalse(spooledText.contains("SpooledApiKey1"), "the spooled snapshot is redacted");

            // 2. application 2 records into B, with the same spool: it must leave application 1 alone
            String app2 = run("for-b", urlB, spool);
            waitFor("application 2 complete in B", Duration.ofSeconds(60),
                    () -> read(dsB, app2).map(AppSnapshot::complete).orElse(false));
            assertTrue(read(dsB, app1).isEmpty(), "A's snapshot was not delivered to B");
            assertEquals(1, waiting.stream().filter(Files::exists).count(), "A's snapshot is still in the spool");

            // 3. A comes back: application 1 arrives there (its own writer keeps retrying; a later listener of A
            // would deliver it from the spool at start)
            try (EmbeddedPostgres a = EmbeddedPostgres.builder().setPort(portA).start()) {
                DataSource dsA = a.getPostgresDatabase();
                String app3 = run("for-a-again", urlA, spool);
                waitFor("application 1 delivered to A", Duration.ofSeconds(60),
                        () -> read(dsA, app1).map(AppSnapshot::complete).orElse(false));
                waitFor("application 3 in A", Duration.ofSeconds(60),
                        () -> read(dsA, app3).map(AppSnapshot::complete).orElse(false));
                waitFor("A's spool file removed after delivery", Duration.ofSeconds(30),
                        () -> waiting.stream().noneMatch(Files::exists));
                assertTrue(read(dsA, app2).isEmpty(), "B's application never went to A");
            }
            assertTrue(read(dsB, app1).isEmpty(), "A's snapshot never went to B");
            assertEquals(1, count(dsB), "B holds only its own application");
        }
    }

    /** Runs a small application whose listener records into {@code url}, and returns its id once it stopped. */
    private static String run(String name, String url, Path spool, String... extraConf) {
        Map<String, String> conf = new java.util.HashMap<>(Map.of(
                "spark.sparkscope.jdbc.url", url,
                "spark.sparkscope.spool.dir", spool.toString(),
                "spark.sparkscope.flush.intervalMs", "300",
                "spark.sparkscope.retry.maxBackoffMs", "1000"));
        for (int i = 0; i < extraConf.length; i += 2) {
            conf.put(extraConf[i], extraConf[i + 1]);
        }
        SparkSession spark = LocalSpark.start(name, conf);
        String appId = spark.sparkContext().applicationId();
        assertEquals(100, JavaSparkContext.fromSparkContext(spark.sparkContext())
                .parallelize(java.util.stream.IntStream.range(0, 100).boxed().toList(), 2).count());
        spark.stop();
        return appId;
    }

    private static Optional<AppSnapshot> read(DataSource ds, String appId) {
        try {
            return SnapshotReader.read(ds, appId, null);
        } catch (Exception e) {
            return Optional.empty(); // schema not there yet
        }
    }

    private static long count(DataSource ds) throws Exception {
        try (var c = ds.getConnection(); var st = c.createStatement();
             var rs = st.executeQuery("select count(*) from application")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String gunzip(Path file) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
