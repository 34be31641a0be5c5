package io.sparkscope.core.heuristics;

import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.text.Units;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlatformTest {

    private static AppConfig conf(Map<String, String> spark, String command) {
        return new AppConfig(spark, Map.of(), command == null ? Map.of() : Map.of("sun.java.command", command),
                Map.of());
    }

    private static Map<String, String> props(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void kubernetesPySparkFromTheResourceTypeOrThePythonRunner() {
        Platform byType = Platform.of(conf(props("spark.master", "k8s://https://10.0.0.1:443",
                "spark.kubernetes.resource.type", "python"), null));
        assertEquals(Platform.Manager.KUBERNETES, byType.manager());
        assertEquals(Platform.Language.PYTHON, byType.language());
        assertEquals(0.4, byType.defaultOverheadFactor());
        assertEquals("Kubernetes, PySpark", byType.describe());

        Platform byCommand = Platform.of(conf(props("spark.master", "k8s://https://10.0.0.1:443"),
                "org.apache.spark.deploy.SparkSubmit --class org.apache.spark.deploy.PythonRunner local:///job.py"));
        assertEquals(Platform.Language.PYTHON, byCommand.language());

        Platform jvm = Platform.of(conf(props("spark.master", "k8s://https://10.0.0.1:443"), "SparkSubmit --class a.B"));
        assertEquals(Platform.Language.JVM, jvm.language());
        assertEquals(0.1, jvm.defaultOverheadFactor(), "JVM jobs on Kubernetes get 10 %");
    }

    @Test
    void yarnPythonGetsTenPercentAndMeasuredPythonWorkersMakeAPySparkJob() {
        Platform yarn = Platform.of(conf(props("spark.master", "yarn", "spark.submit.pyFiles", "deps.zip,a.py"), null));
        assertEquals(Platform.Language.PYTHON, yarn.language());
        assertEquals(0.1, yarn.defaultOverheadFactor(), "YARN gives every job 10 %");
        assertEquals(Platform.Language.JVM, Platform.of(conf(props("spark.master", "yarn",
                "spark.submit.pyFiles", ""), null)).language(), "an empty pyFiles says nothing");

        AppSnapshot measured = SnapshotBuilder.app().master("yarn").executor("1", 4, 1000)
                .peaks("1", Map.of("JVMHeapMemory", Units.GiB, "ProcessTreeJVMRSSMemory", 2 * Units.GiB,
                        "ProcessTreePythonRSSMemory", 300 * Units.MiB)).build();
        assertEquals(Platform.Language.PYTHON, Platform.of(measured).language());
    }

    @Test
    void databricksWithItsNodeTypeAndNotRForItsClusterWideRSettings() {
        Platform p = Platform.of(conf(props("spark.master", "spark://10.0.0.1:7077",
                "spark.databricks.workerNodeTypeId", "r5.8xlarge",
                "spark.databricks.clusterUsageTags.clusterNodeType", "r5.8xlarge",
                "spark.r.backendConnectionTimeout", "604800"), null));
        assertEquals(Platform.Service.DATABRICKS, p.service());
        assertEquals(Platform.Manager.STANDALONE, p.manager());
        assertEquals(Platform.Language.JVM, p.language());
        assertEquals("r5.8xlarge", p.nodeType());
        assertTrue(p.executorsSizedByNodeType());
        assertEquals("Databricks (node type r5.8xlarge) on standalone, JVM", p.describe());
    }

    @Test
    void emrDataprocLocalAndR() {
        Platform emr = Platform.of(conf(props("spark.master", "yarn", "spark.emr.default.executor.memory", "9397M"),
                null));
        assertEquals(Platform.Service.EMR, emr.service());
        assertTrue(emr.yarn());
        assertFalse(emr.executorsSizedByNodeType());
        assertEquals(Platform.Service.DATAPROC, Platform.of(conf(props("spark.master", "yarn",
                "spark.dataproc.sql.joinConditionReorder.enabled", "true"), null)).service());
        Platform local = Platform.of(conf(props("spark.master", "local[4]"), null));
        assertTrue(local.local());
        assertNull(local.nodeType());
        assertEquals("local mode, JVM", local.describe());
        assertEquals(Platform.Language.R, Platform.of(conf(props("spark.master", "yarn", "spark.r.command",
                "/usr/bin/Rscript"), null)).language());
    }

    @Test
    void settingsUseThePlatformsOverheadDefaults() {
        SparkSettings k8sPython = new SparkSettings(conf(props("spark.master", "k8s://https://h:443",
                "spark.kubernetes.resource.type", "python", "spark.executor.memory", "4g"), null), "3.5.3");
        assertEquals((long) (0.4 * 4 * Units.GiB), k8sPython.executorOverheadBytes(), "Kubernetes: 40 % for Python");
        SparkSettings yarnPython = new SparkSettings(conf(props("spark.master", "yarn",
                "spark.submit.pyFiles", "a.py", "spark.executor.memory", "4g"), null), "3.5.3");
        assertEquals((long) (0.1 * 4 * Units.GiB), yarnPython.executorOverheadBytes(), "YARN: 10 %");
        SparkSettings small = new SparkSettings(conf(props("spark.master", "yarn", "spark.executor.memory", "1g"),
                null), "3.5.3");
        assertEquals(SparkSettings.MIN_OVERHEAD_BYTES, small.executorOverheadBytes(), "at least 384 MiB");
        SparkSettings k8sSetFactor = new SparkSettings(conf(props("spark.master", "k8s://https://h:443",
                "spark.kubernetes.resource.type", "python", "spark.kubernetes.memoryOverheadFactor", "0.2",
                "spark.executor.memory", "10g"), null), "3.5.3");
        assertEquals(2 * Units.GiB, k8sSetFactor.executorOverheadBytes(), "a set Kubernetes factor wins");
        SparkSettings oldK8s = new SparkSettings(conf(props("spark.master", "k8s://https://h:443",
                "spark.executor.memoryOverheadFactor", "0.3", "spark.executor.memory", "10g"), null), "3.2.1");
        assertEquals(Units.GiB, oldK8s.executorOverheadBytes(), "before 3.3 Kubernetes ignores the executor factor");
    }

    @Test
    void unsetExecutorCoresAreWhatTheExecutorsReported() {
        AppSnapshot standalone = SnapshotBuilder.app().master("spark://h:7077").executor("1", 16, 1000)
                .executor("2", 16, 1000).build();
        SparkSettings s = SparkSettings.of(standalone);
        assertEquals("16", s.current("spark.executor.cores").value());
        assertEquals(SettingAdvice.ValueSource.DEFAULT, s.current("spark.executor.cores").source());
        assertEquals("1", SparkSettings.of(SnapshotBuilder.app().master("k8s://https://h:443").build())
                .current("spark.executor.cores").value(), "Kubernetes' default is one core");
        assertFalse(SparkSettings.of(SnapshotBuilder.app().master("spark://h:7077").build())
                .current("spark.executor.cores").known(), "standalone without executors: unknown");
    }
}
