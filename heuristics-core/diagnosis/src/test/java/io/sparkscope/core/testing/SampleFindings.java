package io.sparkscope.core.testing;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Findings to store beside {@link SnapshotBuilder#rich} snapshots. Apart from {@link SnapshotBuilder} because findings
 * belong to the diagnosis module, which the snapshot fixture (in the recording module's test-jar) cannot see.
 */
public final class SampleFindings {
    private SampleFindings() {
    }

    /**
     * A high skew finding with nested details, an impact and two pieces of setting advice, and a low GC finding
     * caused by it; strings with quotes and unicode, numbers past 2^31.
     */
    public static List<Finding> skewAndGc() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("ratio", 10.5);
        details.put("median", 1200);
        details.put("note", "it's \"x\"");
        details.put("per stage", Map.of("1.1", List.of(1, 2.5, 3_000_000_000L)));
        List<SettingAdvice> advice = List.of(new SettingAdvice("spark.sql.shuffle.partitions", "200",
                SettingAdvice.ValueSource.DEFAULT, "800", List.of("stage 1 is skewed", "it's \"quoted\" ü")),
                new SettingAdvice("spark.executor.memory", "4g", SettingAdvice.ValueSource.SET, "6g", List.of()));
        return List.of(
                new Finding("skew:1.1", "skew", Severity.HIGH, "Skewed stage 1", "max task 10× median",
                        "Repartition or salt the key", List.of("1.1"), List.of("1"), List.of("spark.sql.shuffle.partitions"),
                        details, new Impact(3_000_000_000L, 45_000, "slowest task − median task"), null, advice),
                new Finding("gc:app", "gc", Severity.LOW, "GC pressure", "GC is 12% of task time",
                        "Raise spark.executor.memory", List.of(), List.of("1"), List.of("spark.executor.memory"), null,
                        Impact.NONE, "skew:1.1", List.of()));
    }
}
