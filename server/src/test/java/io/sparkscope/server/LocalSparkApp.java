package io.sparkscope.server;

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

import java.nio.file.Path;
import java.util.function.Consumer;

/** A real Spark application in local mode, as the server's tests run them to get event logs to read. */
public final class LocalSparkApp {
    private LocalSparkApp() {
    }

    /** What every test application sets: its master and name, no UI, the driver on loopback, its event log. */
    public static SparkConf conf(String master, String name, Path logDir) {
        return new SparkConf()
                .setMaster(master)
                .setAppName(name)
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.eventLog.enabled", "true")
                .set("spark.eventLog.dir", logDir.toUri().toString());
    }

    /**
     * Runs {@code workload} in a session of {@code conf}, then stops it and forgets it (so the next test's
     * getOrCreate starts a new application); returns the application id.
     */
    public static String run(SparkConf conf, Consumer<SparkSession> workload) {
        SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
        try {
            workload.accept(spark);
            return spark.sparkContext().applicationId();
        } finally {
            spark.stop();
            SparkSession.clearActiveSession();
            SparkSession.clearDefaultSession();
        }
    }
}
