package io.sparkscope.core.golden;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.event.ExecutorMetric;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Platform;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.SharedData;
import io.sparkscope.core.text.Units;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Memory and core advice on real logs of Kubernetes PySpark jobs and a Databricks cluster, read in place. */
class PlatformSharedLogTest {
    private static final List<String> KUBEFLOW_TAXI = List.of(
            "other/kubeflow-spark-history-mcp/eventlog_v2_spark-cc4d115f011443d787f03a71a476a745",
            "other/kubeflow-spark-history-mcp/eventlog_v2_spark-110be3a8424d4a2789cb88134418217b");

    private static AppSnapshot snapshot(String relative) throws Exception {
        Path logs = SharedData.eventLogs().orElse(null);
        Assumptions.assumeTrue(logs != null, "SKIPPED: ../shared/eventlogs not found (set SPARKSCOPE_SHARED); "
                + "platform advice on real Kubernetes and Databricks logs not checked");
        var source = EventLogReader.discover(logs.resolve(relative)).get(0);
        return EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS, p -> { }).snapshot();
    }

    @Test
    void kubernetesPySparkAdviceKeepsContainersAboveWhatTheExecutorsHeld() throws Exception {
        for (String log : KUBEFLOW_TAXI) {
            AppSnapshot app = snapshot(log);
            SparkSettings conf = SparkSettings.of(app);
            assertEquals(Platform.Manager.KUBERNETES, conf.platform().manager(), log);
            assertEquals(Platform.Language.PYTHON, conf.platform().language(), log);
            long rss = 0;
            for (ExecutorSummary e : app.executors()) {
                rss = Math.max(rss, e.peakMetrics().getOrDefault(
                        ExecutorMetric.PROCESS_TREE_JVM_RSS_MEMORY.sparkName, 0L));
            }
            assertTrue(rss > 4 * Units.GiB, log + ": executors held more than their 4g heap: " + Units.bytes(rss));
            List<Finding> findings = Diagnoser.defaults().run(app).findings();
            for (Finding f : findings) {
                long heap = conf.executorMemoryBytes();
                long overhead = conf.executorOverheadBytes();
                SettingAdvice h = f.adviceFor("spark.executor.memory");
                SettingAdvice o = f.adviceFor("spark.executor.memoryOverhead");
                if (h != null) {
                    heap = Units.parseBytes(h.recommendedValue(), Units.MiB);
                }
                if (o != null) {
                    overhead = Units.parseBytes(o.recommendedValue(), Units.MiB);
                }
                assertTrue(heap + overhead >= rss * 1.1, log + ": " + f.id() + " advises a container of "
                        + Units.bytes(heap + overhead) + " under the " + Units.bytes(rss) + " measured: "
                        + f.recommendation());
                assertFalse(f.severity() == Severity.HIGH && Set.of("MemoryConfig", "CoreNumber", "MemorySizing",
                        "ExecutorGc").contains(f.heuristic()), log + ": " + f.id() + " is HIGH");
            }
        }
    }

    @Test
    void databricksExecutorsOfTheNodeTypeGetNoExecutorSettingsAndNoVeryLargeFinding() throws Exception {
        AppSnapshot app = snapshot("other/databricks-rollover");
        Platform platform = Platform.of(app);
        assertEquals(Platform.Service.DATABRICKS, platform.service());
        assertEquals("r5.8xlarge", platform.nodeType());
        List<Finding> findings = Diagnoser.defaults().run(app).findings();
        for (Finding f : findings) {
            for (SettingAdvice a : f.advice()) {
                assertFalse(a.key().equals("spark.executor.cores") || a.key().equals("spark.executor.memory"),
                        f.id() + " advises " + a.phrase() + ", which Databricks sets from the node type");
            }
            assertFalse(f.title().contains("Very large executors"), f.title());
            assertFalse(f.heuristic().equals("CoreNumber"), f.id() + ": the executor has its node's cores");
            assertFalse((f.recommendation() + f.message()).contains("(now unknown)"), f.id() + ": "
                    + f.recommendation());
        }
        assertTrue(findings.stream().anyMatch(f -> f.id().equals("MemorySizing:executorsOverProvisioned")
                && f.recommendation().contains("node type")), findings.toString());
    }
}
