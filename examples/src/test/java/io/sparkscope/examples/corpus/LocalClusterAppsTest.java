package io.sparkscope.examples.corpus;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The corpus apps whose executors run in JVMs of their own (local-cluster) need a Spark home to start them from.
 * Without one Spark would wait forever for executors that never register, so the app must stop at once, saying
 * what to set.
 */
class LocalClusterAppsTest {

    @Test
    void withoutASparkHomeTheAppStopsNamingWhatToSet() {
        assumeTrue(System.getenv("SPARK_HOME") == null, "SPARK_HOME is set in this environment: nothing to check");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> CorpusApps.onLocalCluster(new SparkConf()));
        assertTrue(e.getMessage().contains("SPARK_HOME") && e.getMessage().contains("bench/spark-home.sh"),
                e.getMessage());
        // the apps that need it are the idle ones: their settings refuse to start as well
        for (String name : new String[]{"idle-executors", "interactive-think-time"}) {
            CorpusApp app = CorpusApps.find(name).orElseThrow();
            assertThrows(IllegalStateException.class, () -> app.settings().apply(new SparkConf()), name);
        }
    }
}
