package io.sparkscope.bench;

import org.apache.spark.SparkConf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The Spark settings of the benchmarks' listener variants: no listener, Spark's event log, Sparkscope into a database. */
final class ListenerVariants {
    private ListenerVariants() {
    }

    /**
     * A local[2] configuration without UI for one variant ({@code none}, {@code eventlog}, {@code sparkscope}).
     *
     * @param eventLogDir where the event log goes (eventlog only)
     * @param prefix      the benchmark's name, for the temporary spool directory
     */
    static SparkConf conf(String appName, String variant, Path eventLogDir, String url, String user, String password,
                          String prefix) throws IOException {
        SparkConf conf = new SparkConf().setMaster("local[2]").setAppName(appName)
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1");
        if (variant.equals("eventlog")) {
            conf.set("spark.eventLog.enabled", "true").set("spark.eventLog.dir", eventLogDir.toUri().toString());
        } else if (variant.equals("sparkscope")) {
            conf.set("spark.extraListeners", "io.sparkscope.listener.SparkscopeListener")
                    .set("spark.sparkscope.jdbc.url", url)
                    .set("spark.sparkscope.jdbc.user", user)
                    .set("spark.sparkscope.jdbc.password", password)
                    .set("spark.sparkscope.report.enabled", "false")
                    // A spool of its own: the default one is shared by every listener of this user on the machine, so
                    // a snapshot left there by an earlier run (or another benchmark) would be delivered into this
                    // run's database and counted as this run's work.
                    .set("spark.sparkscope.spool.dir", Files.createTempDirectory(prefix + "-spool").toString());
        }
        return conf;
    }
}
