package io.sparkscope.core.heuristics;

import io.sparkscope.core.text.Units;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Error grouping, setting values and the Finding record's compatibility. */
class ErrorGroupsAndAdviceTest {
    @Test
    void messagesThatDifferInAddressesIdsHostsAndPathsShareOneSignature() {
        String a = "com.nvidia.spark.rapids.jni.GpuSplitAndRetryOOM: GPU OutOfMemory: could not split inputs and retry."
                + " The current attempt: {HostMemoryBuffer{address=0x7fac24b85210, length=729491223, id=974}}";
        String b = "com.nvidia.spark.rapids.jni.GpuSplitAndRetryOOM: GPU OutOfMemory: could not split inputs and retry."
                + " The current attempt: {HostMemoryBuffer{address=0x7fad29e60e10, length=731101995, id=1290}}";
        assertEquals(ErrorGroups.signature(a), ErrorGroups.signature(b));
        assertTrue(ErrorGroups.signature(a).startsWith("com.nvidia.spark.rapids.jni.GpuSplitAndRetryOOM"),
                ErrorGroups.signature(a));
        String f1 = "FetchFailed(BlockManagerId(1, hostname-08.domain.com, 46008), shuffleId=54, mapIndex=1, message="
                + "org.apache.spark.shuffle.FetchFailedException: /hadoop/disk0/blockmgr-86c34f9c-8de4-4c56-ad4e-"
                + "5182be986280/10/shuffle_54_8339_0.index)";
        String f2 = "FetchFailed(BlockManagerId(7, hostname-11.domain.com, 41002), shuffleId=54, mapIndex=9, message="
                + "org.apache.spark.shuffle.FetchFailedException: /hadoop/disk3/blockmgr-0a1b2c3d-8de4-4c56-ad4e-"
                + "5182be986281/2d/shuffle_54_8347_0.index)";
        assertEquals(ErrorGroups.signature(f1), ErrorGroups.signature(f2));
        assertEquals(ErrorGroups.signature("Lost task 51.3 in stage 34.0 (TID 12417) (rl-r7525-d32-u11 executor 0)"),
                ErrorGroups.signature("Lost task 2.0 in stage 31.0 (TID 900) (rl-r7525-d32-u12 executor 3)"));
        assertEquals(ErrorGroups.signature("java.io.IOException: Connection from /10.1.2.3:7337 closed"),
                ErrorGroups.signature("java.io.IOException: Connection from /10.1.9.4:7337 closed"));
        // different errors stay apart, class names and file names stay readable
        assertFalse(ErrorGroups.signature("java.lang.NullPointerException at Foo.scala:12")
                .equals(ErrorGroups.signature("java.lang.IllegalStateException at Foo.scala:12")));
        assertTrue(ErrorGroups.signature("at com.example.Foo.bar(Foo.scala:12)").contains("Foo.scala"));
    }

    @Test
    void groupsCountKeepTheFirstOccurrenceVerbatimAndWhereTheyHappened() {
        ErrorGroups g = new ErrorGroups();
        g.add("java.lang.OutOfMemoryError: id=1\n\tat A.a(A.java:1)\n\tat B.b(B.java:2)", "3.0", "1");
        g.add("java.lang.OutOfMemoryError: id=2\n\tat A.a(A.java:1)", "4.0", "2");
        g.add("java.lang.IllegalStateException: bad row", "3.0", "1");
        List<Map<String, Object>> top = g.top(5);
        assertEquals(2, top.size());
        assertEquals(2, top.get(0).get("count"));
        assertEquals("java.lang.OutOfMemoryError: id=1\n\tat A.a(A.java:1)\n\tat B.b(B.java:2)", top.get(0).get("first"));
        assertEquals(List.of("3.0", "4.0"), top.get(0).get("stages"));
        assertEquals(List.of("1", "2"), top.get(0).get("executors"));
    }

    @Test
    void valuesCompareAsSparkReadsThem() {
        assertTrue(SettingAdvice.sameValue("spark.sql.autoBroadcastJoinThreshold", "10m", "10485760"));
        assertTrue(SettingAdvice.sameValue("spark.executor.memory", "4096", "4g")); // bare memory is MiB
        assertTrue(SettingAdvice.sameValue("spark.sql.adaptive.enabled", "TRUE", "true"));
        assertFalse(SettingAdvice.sameValue("spark.sql.shuffle.partitions", "200", "400"));
        SettingAdvice a = new SettingAdvice("spark.sql.shuffle.partitions", "200", SettingAdvice.ValueSource.DEFAULT,
                "200", "x");
        assertTrue(a.recommendsCurrent());
        assertEquals("spark.sql.shuffle.partitions=200 (now 200, the default)", a.phrase());
    }

    @Test
    void taskAttemptsNameTheMasterInLocalModeWhereMaxFailuresDoesNotApply() {
        assertEquals("the 3 attempts local[2,3] allows per task (spark.task.maxFailures does not apply in local mode)",
                attempts(Map.of("spark.master", "local[2,3]")));
        assertTrue(attempts(Map.of("spark.master", "local[*]", "spark.task.maxFailures", "8"))
                .startsWith("the single attempt local[*] allows"));
        assertEquals("spark.task.maxFailures (now 4)", attempts(Map.of("spark.master", "yarn")));
        assertEquals("spark.task.maxFailures (now 8)",
                attempts(Map.of("spark.master", "local-cluster[2,1,1024]", "spark.task.maxFailures", "8")));
    }

    private static String attempts(Map<String, String> props) {
        return new SparkSettings(new io.sparkscope.core.model.AppConfig(props, Map.of(), Map.of(), Map.of()))
                .taskAttemptsPhrase();
    }

    @Test
    void adviceForTheValueInForceIsDroppedAndTheTextSaysSo() {
        SettingAdvice same = new SettingAdvice("spark.sql.shuffle.partitions", "200", SettingAdvice.ValueSource.SET,
                "200", "because");
        Finding f = Finding.builder("X", Severity.LOW).recommendation("Try " + same.phrase() + ".").advise(same).build();
        assertEquals(List.of(), f.advice());
        assertEquals("Try spark.sql.shuffle.partitions (already 200).", f.recommendation());
    }

    @Test
    void theOldCanonicalConstructorStillWorksWithEmptyDefaults() {
        Finding f = new Finding("A", "A", Severity.LOW, "t", "m", "r", List.of(), List.of(), List.of(), Map.of());
        assertEquals(Impact.NONE, f.impact());
        assertNull(f.causedBy());
        assertEquals(List.of(), f.advice());
        Finding g = f.withImpact(Impact.of(5, 6, "b")).withCausedBy("B");
        assertEquals(5, g.impact().wallMs());
        assertEquals("B", g.causedBy());
    }

    @Test
    void levelsGradeAndWidenBelowAFloor() {
        Levels l = HeuristicConfig.defaults().levels("ExecutorGc.ratio");
        assertEquals(Severity.LOW, l.grade(0.15));
        assertEquals(Severity.HIGH, l.grade(0.3));
        assertEquals(Severity.NONE, l.grade(0.15, false));
        assertEquals(Severity.LOW, l.grade(0.3, false));
        assertEquals(Severity.HIGH, HeuristicConfig.defaults().levels("MemoryConfig.executorMemoryBytes")
                .grade(40.0 * Units.GiB));
    }
}
