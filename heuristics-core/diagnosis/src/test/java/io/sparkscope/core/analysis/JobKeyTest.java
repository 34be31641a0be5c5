package io.sparkscope.core.analysis;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Job keys from the driver command lines real spark-submit, YARN and notebooks write. */
class JobKeyTest {
    static JobKey key(String name, String user, String master, String command, String... sparkPairs) {
        Map<String, String> spark = new HashMap<>();
        if (master != null) {
            spark.put("spark.master", master);
        }
        for (int i = 0; i < sparkPairs.length; i += 2) {
            spark.put(sparkPairs[i], sparkPairs[i + 1]);
        }
        Map<String, String> system = command == null ? Map.of() : Map.of("sun.java.command", command);
        return JobKey.of(name, user, spark, system);
    }

    @Test
    void aSubmittedJobIsNameUserMainClassAndMasterKind() {
        JobKey k = key("etl-daily", "alice", "yarn", "org.apache.spark.deploy.SparkSubmit --master yarn"
                + " --deploy-mode cluster --conf spark.executor.memory=8g --class com.example.Etl"
                + " hdfs:///jobs/etl-1.2.jar --date 2026-11-29");
        assertEquals(JobKey.Source.DERIVED, k.source());
        assertEquals("etl-daily | alice | com.example.Etl | yarn", k.value());
        assertTrue(k.recurring());
        // the next day: other arguments, another host's master URL of the same kind, the same job
        assertEquals(k, key("etl-daily", "alice", "yarn-cluster", "org.apache.spark.deploy.SparkSubmit --master yarn"
                + " --class com.example.Etl hdfs:///jobs/etl-1.2.jar --date 2026-11-30"));
    }

    @Test
    void unrelatedJobsWithOneNameStayApart() {
        String cmd = "org.apache.spark.deploy.SparkSubmit --class com.example.Etl etl.jar";
        JobKey alice = key("etl", "alice", "yarn", cmd);
        assertNotEquals(alice, key("etl", "bob", "yarn", cmd), "another user");
        assertNotEquals(alice, key("etl", "alice", "yarn", cmd.replace("com.example.Etl", "org.other.Load")),
                "another program");
        assertNotEquals(alice, key("etl", "alice", "local[4]", cmd), "a local test run is not the cluster job");
    }

    @Test
    void pythonAndYarnClusterModeNameTheScript() {
        // YARN cluster mode: the ApplicationMaster runs Spark's PythonRunner on the script
        JobKey pi = key("PythonPi", "kuwii", "yarn", "org.apache.spark.deploy.yarn.ApplicationMaster --class"
                + " org.apache.spark.deploy.PythonRunner --primary-py-file pi.py --arg 100 --properties-file"
                + " /data/nm-local-dir/usercache/kuwii/appcache/application_1_0006/container_01/__spark_conf__/x");
        assertEquals("PythonPi | kuwii | pi.py | yarn", pi.value());
        JobKey client = key("PythonPi", "kuwii", "yarn", "org.apache.spark.deploy.SparkSubmit --master yarn"
                + " /home/kuwii/pi.py 100");
        assertEquals(pi, client, "client and cluster mode of one script");
        JobKey scala = key("ReduceByKey", "rxue", "yarn", "org.apache.spark.deploy.yarn.ApplicationMaster --class"
                + " com.groupon.ReduceByKey --jar file:/home/rxue/jobs.jar --arg 8");
        assertEquals("ReduceByKey | rxue | com.groupon.ReduceByKey | yarn", scala.value());
        JobKey standalone = key("etl", "u", "spark://m:7077", "org.apache.spark.deploy.worker.DriverWrapper"
                + " spark://Worker@10.0.0.1:4040 /work/driver-1/etl.jar com.example.Etl 2026-11-29");
        assertEquals("etl | u | com.example.Etl | standalone", standalone.value());
        assertEquals("job | u | com.example.Main | k8s", key("job", "u", "k8s://https://api:6443",
                "org.apache.spark.deploy.SparkSubmit --deploy-mode client --properties-file /opt/spark/conf/p"
                        + " --class com.example.Main local:///opt/app.jar").value());
        assertEquals("plain | u | com.example.Main | local", key("plain", "u", "local[*]",
                "com.example.Main --input x").value(), "a JVM started without spark-submit");
    }

    @Test
    void namesWithSpacesDoNotHideTheMainClass() {
        JobKey k = key("Nightly orders", "ops", "yarn", "org.apache.spark.deploy.SparkSubmit --master yarn --name"
                + " Nightly orders --conf spark.driver.extraJavaOptions=-Dx=1 -Dy=2 --class com.example.Orders"
                + " orders.jar 2026-11-29");
        assertEquals("Nightly orders | ops | com.example.Orders | yarn", k.value());
    }

    @Test
    void shellsAndNotebooksHaveNoKey() {
        String shell = "org.apache.spark.deploy.SparkSubmit --master yarn --class org.apache.spark.repl.Main"
                + " --name Spark shell spark-shell";
        JobKey a = key("Spark shell", "user1", "yarn", shell);
        assertEquals(JobKey.Source.INTERACTIVE, a.source());
        assertNull(a.value());
        assertFalse(a.recurring());
        assertTrue(a.reason().contains("org.apache.spark.repl.Main"), a.reason());
        // a shell given its own name (sparklint's GraphXTest log) is still a shell
        assertNull(key("GraphXTest", "johndoe", "yarn-client", "org.apache.spark.deploy.SparkSubmit --master"
                + " yarn-client --packages a:b:1 spark-shell").value());
        // Spark 1.x logs: no --class, but the REPL's settings
        assertNull(key("Spark shell", "irashid", "local[*]", null).value(), "by its name");
        assertNull(key("my session", "u", "local[*]", null, "spark.repl.class.uri", "spark://h:1/classes").value());
        assertNull(key("PySparkShell", "u", "yarn", "org.apache.spark.deploy.SparkSubmit --name PySparkShell"
                + " pyspark-shell").value());
        assertNull(key("SparkSQL::10.1.2.3", "u", "yarn", "org.apache.spark.deploy.SparkSubmit --class"
                + " org.apache.spark.sql.hive.thriftserver.SparkSQLCLIDriver spark-internal").value());
        assertNull(key("Thrift JDBC/ODBC Server", "hive", "yarn", "org.apache.spark.deploy.SparkSubmit --class"
                + " org.apache.spark.sql.hive.thriftserver.HiveThriftServer2 spark-internal").value());
        assertNull(key("Zeppelin", "z", "yarn", "org.apache.spark.deploy.SparkSubmit --class"
                + " org.apache.zeppelin.interpreter.remote.RemoteInterpreterServer /opt/zeppelin/spark.jar").value());
        assertNull(key("livy-session-12", "u", "yarn", "org.apache.spark.deploy.SparkSubmit --class"
                + " org.apache.livy.rsc.driver.RSCDriverBootstrapper spark-internal").value());
        assertNull(key("Databricks Shell", "root", "spark://10.0.0.1:7077", null).value());
        assertNull(key("2f1c8a8e-5a5e-4b7e-9a59-1f2d3c4b5a6e", "u", "local", null).value(), "no appName set");
        assertNull(key("", "u", "local", null).value());
    }

    @Test
    void aPythonProcessWithANameOfItsOwnIsAJob() {
        // `python etl.py` (or a notebook) launches the JVM as pyspark-shell; its name is all there is
        JobKey k = key("daily-etl", "bob", "yarn", "org.apache.spark.deploy.SparkSubmit --master yarn pyspark-shell");
        assertEquals("daily-etl | bob | python | yarn", k.value());
    }

    @Test
    void theConfiguredKeyWins() {
        JobKey k = key("Spark shell", "user1", "yarn", "org.apache.spark.deploy.SparkSubmit --class"
                + " org.apache.spark.repl.Main spark-shell", JobKey.CONFIG_KEY, "  weekly-report ");
        assertEquals(JobKey.Source.CONFIGURED, k.source());
        assertEquals("weekly-report", k.value());
        assertEquals(k.value(), key("renamed", "other", "local", null, JobKey.CONFIG_KEY, "weekly-report").value());
        assertEquals(JobKey.Source.INTERACTIVE, key("Spark shell", "u", null, null, JobKey.CONFIG_KEY, " ").source(),
                "a blank setting is no key");
        assertEquals(JobKey.MAX_LENGTH, key("x", "u", null, null, JobKey.CONFIG_KEY, "k".repeat(2000)).value().length());
    }

    @Test
    void masterKinds() {
        assertEquals("local", JobKey.masterKind("local-cluster[2,1,1024]"));
        assertEquals("yarn", JobKey.masterKind("yarn-client"));
        assertEquals("k8s", JobKey.masterKind("k8s://https://x"));
        assertEquals("standalone", JobKey.masterKind("spark://h:7077"));
        assertEquals("mesos", JobKey.masterKind("mesos://h:5050"));
        assertEquals("", JobKey.masterKind("*********(redacted)"));
        assertEquals("", JobKey.masterKind(null));
        assertEquals("etl | u |  |", key("etl", "u", null, "*********(redacted)").value(),
                "a redacted command names nothing");
    }

    @Test
    void anAirflowTaskIsOneJobWhateverItsRunsAreNamed() {
        String[] lineage = {"spark.openlineage.parentJobNamespace", "default",
                "spark.openlineage.parentJobName", "orders_daily.load",
                "spark.openlineage.parentRunId", "01931885-2800-7be7-aa8d-aaa15c337267"};
        String cmd = "org.apache.spark.deploy.SparkSubmit --class com.example.Etl etl.jar";
        JobKey monday = key("orders 2026-11-30", "airflow", "yarn", cmd, lineage);
        assertEquals(JobKey.Source.SCHEDULED, monday.source());
        assertEquals("orders_daily.load | openlineage default", monday.value());
        assertEquals("orders_daily.load", JobKey.displayName(monday.value()));
        String[] tuesday = lineage.clone();
        tuesday[5] = "01931885-2800-7be7-aa8d-bbb15c337267"; // another task run
        assertEquals(monday, key("orders 2026-12-01", "airflow", "yarn", cmd, tuesday));
        // a scheduled pyspark process named by default is a job, not a shell
        assertEquals(monday.value(), key("PySparkShell", "airflow", "local", "org.apache.spark.deploy.SparkSubmit"
                + " pyspark-shell", lineage).value());
        // another Airflow's namespace is another job; an explicit key still wins
        lineage[1] = "prod";
        assertNotEquals(monday, key("orders", "airflow", "yarn", cmd, lineage));
        String[] configured = java.util.Arrays.copyOf(lineage, lineage.length + 2);
        configured[lineage.length] = JobKey.CONFIG_KEY;
        configured[lineage.length + 1] = "nightly-orders";
        assertEquals("nightly-orders", key("orders", "airflow", "yarn", cmd, configured).value());
    }

    @Test
    void kubernetesTaskLabelsOrAMalformedParentFallBack() {
        String cmd = "org.apache.spark.deploy.SparkSubmit --class com.example.Etl etl.jar";
        assertEquals("orders_daily.load | airflow", key("orders-7f3a", "spark", "k8s://https://api:6443", cmd,
                "spark.kubernetes.driver.label.dag_id", "orders_daily",
                "spark.kubernetes.driver.label.task_id", "load").value());
        // an unrendered template is ignored: the key is derived as before
        assertEquals("etl | alice | com.example.Etl | yarn", key("etl", "alice", "yarn", cmd,
                "spark.openlineage.parentJobName", "{{ macros.OpenLineagePlugin.lineage_job_name(task_instance) }}")
                .value());
    }
}
