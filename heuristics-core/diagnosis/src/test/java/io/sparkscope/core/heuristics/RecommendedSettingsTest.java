package io.sparkscope.core.heuristics;

import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.redact.Redactor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Merging one run's advice into one list of settings: one value per key, every reason, only what can be set. */
class RecommendedSettingsTest {
    private static final Platform YARN = Platform.of(new AppConfig(Map.of("spark.master", "yarn"), Map.of(), Map.of(),
            Map.of()));

    private static Finding finding(String heuristic, long savingMs, SettingAdvice... advice) {
        Finding.Builder b = Finding.builder(heuristic, Severity.HIGH).title(heuristic + " title")
                .impact(savingMs, savingMs * 4, savingMs > 0 ? "measured" : "");
        for (SettingAdvice a : advice) {
            b.advise(a);
        }
        return b.build();
    }

    private static SettingAdvice set(String key, String now, String value, String why) {
        return new SettingAdvice(key, now, SettingAdvice.ValueSource.SET, value, why);
    }

    @Test
    void twoFindingsAskingDifferentValuesEndWithOneAndSayWhy() {
        // Both want more memory; ExecutorGc saves more, so its 12g wins and DiskSpill's 10g gives way.
        Finding spill = finding("DiskSpill", 2_000, set("spark.executor.memory", "8g", "10g", "tasks spill"));
        Finding gc = finding("ExecutorGc", 9_000, set("spark.executor.memory", "8g", "12g", "GC takes 30 %"),
                set("spark.serializer", "org.apache.spark.serializer.JavaSerializer",
                        "org.apache.spark.serializer.KryoSerializer", "Java serialization is slow"));
        RecommendedSettings r = RecommendedSettings.of(List.of(spill, gc), YARN, Redactor.defaultRedactor());

        assertEquals(Map.of("spark.executor.memory", "12g", "spark.serializer",
                "org.apache.spark.serializer.KryoSerializer"), r.values());
        RecommendedSettings.Setting mem = r.settings().get(0);
        assertEquals("spark.executor.memory", mem.key());
        assertEquals("8g", mem.currentText());
        assertEquals(List.of("ExecutorGc", "DiskSpill"), mem.because().stream().map(b -> b.heuristic()).toList());
        assertEquals("10g", mem.because().get(1).askedFor());
        assertEquals("tasks spill", mem.because().get(1).reason());
        assertEquals(9_000, mem.saving().wallMs(), "the largest saving, not the sum: the fixes overlap");
        assertTrue(mem.resolution().contains("ExecutorGc asked for 12g, DiskSpill asked for 10g; 12g is used"),
                mem.resolution());
        assertEquals("", r.settings().get(1).resolution());
        assertTrue(r.left().isEmpty());
    }

    @Test
    void storedFindingsReconciledWhenAnalysedStillSayWhoAskedForWhat() {
        // As the engine stores them: reconciled already, so DiskSpill carries 12g and the opposite-minded
        // MemorySizing has given the key up; only the reasons remember what each asked for.
        Finding spill = finding("DiskSpill", 2_000, set("spark.executor.memory", "8g", "10g", "tasks spill"));
        Finding gc = finding("ExecutorGc", 9_000, set("spark.executor.memory", "8g", "12g", "GC takes 30 %"));
        Finding sizing = finding("MemorySizing", 500, set("spark.executor.memory", "8g", "4g", "heap mostly unused"));
        List<Finding> stored = AdviceReconciler.reconcile(List.of(gc, spill, sizing));
        assertEquals(null, stored.get(2).adviceFor("spark.executor.memory"), "MemorySizing gave it up");
        assertEquals("12g", stored.get(1).adviceFor("spark.executor.memory").recommendedValue());

        RecommendedSettings r = RecommendedSettings.of(stored, YARN, Redactor.defaultRedactor());
        assertEquals(Map.of("spark.executor.memory", "12g"), r.values());
        RecommendedSettings.Setting mem = r.settings().get(0);
        assertEquals(List.of("ExecutorGc=12g", "DiskSpill=10g", "MemorySizing=4g"), mem.because().stream()
                .map(b -> b.heuristic() + "=" + b.askedFor()).toList());
        assertEquals("heap mostly unused", mem.because().get(2).reason());
        assertEquals(500, mem.because().get(2).impact().wallMs());
        assertTrue(mem.resolution().startsWith("ExecutorGc asked for 12g, DiskSpill asked for 10g, MemorySizing asked"
                + " for 4g; 12g is used"), mem.resolution());
    }

    @Test
    void adviceForTheValueInForceIsNoSetting() {
        Finding f = finding("X", 0, set("spark.sql.shuffle.partitions", "200", "200", "already right"));
        assertTrue(RecommendedSettings.of(List.of(f), YARN, Redactor.defaultRedactor()).settings().isEmpty());
    }

    @Test
    void onlySettingsThePlatformLetsTheUserSet() {
        Finding f = finding("X", 1_000, set("spark.executor.memory", "8g", "12g", "GC"),
                set("spark.executor.cores", "8", "5", "too many"),
                set("spark.yarn.archive", "", "hdfs:///spark/jars.zip", "uploads"),
                set("spark.sql.shuffle.partitions", "200", "400", "big partitions"));
        Platform databricks = Platform.of(new AppConfig(Map.of("spark.master", "spark://10.0.0.1:7077",
                "spark.databricks.workerNodeTypeId", "r5.4xlarge"), Map.of(), Map.of(), Map.of()));
        RecommendedSettings r = RecommendedSettings.of(List.of(f), databricks, Redactor.defaultRedactor());
        assertEquals(Map.of("spark.sql.shuffle.partitions", "400"), r.values());
        assertEquals(List.of("spark.executor.memory", "spark.executor.cores", "spark.yarn.archive"),
                r.left().stream().map(RecommendedSettings.Left::key).toList());
        assertTrue(r.left().get(0).why().contains("worker node type (r5.4xlarge)"), r.left().get(0).why());
        assertTrue(r.left().get(2).why().contains("YARN setting"), r.left().get(2).why());

        Platform local = Platform.of(new AppConfig(Map.of("spark.master", "local[4]"), Map.of(), Map.of(), Map.of()));
        RecommendedSettings l = RecommendedSettings.of(List.of(f), local, Redactor.defaultRedactor());
        assertEquals(Map.of("spark.sql.shuffle.partitions", "400"), l.values());
        assertTrue(l.left().get(0).why().contains("local mode"), l.left().get(0).why());

        RecommendedSettings y = RecommendedSettings.of(List.of(f), YARN, Redactor.defaultRedactor());
        assertEquals(4, y.values().size(), y.values().toString());
    }

    @Test
    void aValueThatLooksLikeASecretIsNeverWritten() {
        Finding f = finding("X", 0, set("spark.hadoop.fs.s3a.secret.key", "", "abc", "why not"));
        RecommendedSettings r = RecommendedSettings.of(List.of(f), YARN, Redactor.defaultRedactor());
        assertTrue(r.settings().isEmpty());
        assertTrue(r.left().get(0).why().contains("secret"), r.left().toString());
    }
}
