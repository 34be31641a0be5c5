package io.sparkscope.ingest.fetch;

import io.sparkscope.listener.LocalSpark;
import io.sparkscope.server.LocalSparkApp;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.deploy.history.FsHistoryProvider;
import org.apache.spark.deploy.history.HistoryServer;
import org.apache.spark.deploy.history.HistoryServer$;
import org.apache.spark.sql.SparkSession;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Real Spark for the fetch tests: small local-mode applications that write event logs, and Spark's own
 * {@link HistoryServer} serving a directory of them on a free port, in the test JVM.
 */
final class SparkHistory implements AutoCloseable {
    private final HistoryServer server;
    private final FsHistoryProvider provider;
    final String url;

    private SparkHistory(HistoryServer server, FsHistoryProvider provider) {
        this.server = server;
        this.provider = provider;
        this.url = "http://127.0.0.1:" + server.boundPort();
    }

    /** A History Server on {@code logDir}, rescanning it every second as the test adds logs. */
    static SparkHistory start(Path logDir) {
        SparkConf conf = new SparkConf()
                .set("spark.history.fs.logDirectory", logDir.toUri().toString())
                .set("spark.history.fs.update.interval", "1s")
                .set("spark.history.ui.port", "0");
        FsHistoryProvider provider = new FsHistoryProvider(conf);
        HistoryServer server = new HistoryServer(conf, provider, HistoryServer$.MODULE$.createSecurityManager(conf), 0);
        server.initialize();
        server.bind();
        provider.start();
        return new SparkHistory(server, provider);
    }

    /** Waits until the History Server lists {@code count} completed applications. */
    void awaitCompleted(int count) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        String body = "";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                    URI.create(url + "/api/v1/applications?status=completed")).build(),
                    HttpResponse.BodyHandlers.ofString());
            body = r.body();
            if (r.statusCode() == 200 && body.split("\"id\" :", -1).length - 1 >= count) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("History Server did not list " + count + " completed applications: " + body);
    }

    @Override
    public void close() {
        server.stop();
        provider.stop();
    }

    /** Runs one Spark application in local mode with event logging into {@code logDir}; returns its app id. */
    static String runApp(Path logDir, String name, Consumer<SparkSession> workload) {
        SparkConf conf = LocalSparkApp.conf("local[2,3]", name, logDir) // 3 attempts per task: a failed task recovers
                .set("spark.sql.shuffle.partitions", "4")
                // a secret the History Server and Sparkscope must both redact
                .set("spark.sparkscope.test.password", "hunter2");
        return LocalSparkApp.run(conf, workload);
    }

    /**
     * The listener tests' workload ({@link LocalSpark#workload}: SQL with a shuffle and a skipped stage, a job group
     * with a description, a task that fails once and recovers, a job that fails with some tasks succeeding), then a
     * stage whose every task fails.
     */
    static void mixedWorkload(SparkSession spark) {
        LocalSpark.workload(spark);
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        try {
            jsc.parallelize(Arrays.asList(1, 2, 3, 4, 5, 6, 7, 8), 1).map(x -> {
                throw new UnsupportedOperationException("never works");
            }).collect();
        } catch (Exception expected) {
            // a stage without a single successful task: no task summary
        }
    }

    static void smallWorkload(SparkSession spark) {
        spark.range(0, 1000, 1, 3).selectExpr("sum(id)").collectAsList();
    }
}
