package io.sparkscope.core.model;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The scheduler's job and run from the properties Airflow's OpenLineage provider and Kubernetes operator set. */
class LineageTest {
    static final String TASK_RUN = "01931885-2800-7be7-aa8d-aaa15c337267";
    static final String DAG_RUN = "01931885-2800-799d-8041-88a263ffa0d8";

    static Map<String, String> props(String... pairs) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return m;
    }

    @Test
    void airflowsInjectedParentAndRootGiveTheDagAndTask() {
        Lineage l = Lineage.of(props(Lineage.NAMESPACE, "default", Lineage.JOB, "orders_daily.group.load",
                Lineage.RUN_ID, TASK_RUN, Lineage.ROOT_NAMESPACE, "default", Lineage.ROOT_JOB, "orders_daily",
                Lineage.ROOT_RUN_ID, DAG_RUN.toUpperCase(), "spark.master", "yarn"));
        assertEquals("default", l.namespace());
        assertEquals("orders_daily.group.load", l.job());
        assertEquals(TASK_RUN, l.runId());
        assertEquals(DAG_RUN, l.rootRunId(), "run ids compare in lower case");
        assertEquals("orders_daily", l.dagId());
        assertEquals("group.load", l.taskId(), "a task group's dot stays in the task id");
        assertTrue(l.present());
        assertTrue(l.warnings().isEmpty(), l.warnings().toString());
    }

    @Test
    void aParentJobAloneIsNotSplit() {
        // older providers pass no root; "a.b.c" could be DAG "a.b" and task "c" or DAG "a" and task "b.c"
        Lineage l = Lineage.of(props(Lineage.NAMESPACE, "default", Lineage.JOB, "a.b.c", Lineage.RUN_ID, TASK_RUN));
        assertEquals("a.b.c", l.job());
        assertNull(l.dagId());
        assertNull(l.taskId());
        assertTrue(l.present());
        // a root that is not the parent's prefix (another scheduler's root) does not split either
        assertNull(Lineage.of(props(Lineage.JOB, "a.b.c", Lineage.ROOT_JOB, "a.b.c")).dagId());
        assertNull(Lineage.of(props(Lineage.JOB, "ab.c", Lineage.ROOT_JOB, "a")).dagId());
    }

    @Test
    void kubernetesTaskLabelsGiveTheDagAndTask() {
        Lineage l = Lineage.of(props(Lineage.DAG_LABEL, "orders_daily", Lineage.TASK_LABEL, "load"));
        assertEquals("orders_daily", l.dagId());
        assertEquals("load", l.taskId());
        assertNull(l.job());
        assertTrue(l.present());
        Lineage half = Lineage.of(props(Lineage.DAG_LABEL, "orders_daily"));
        assertNull(half.dagId(), "a DAG without its task names no task");
        assertFalse(half.present());
    }

    @Test
    void nothingSetIsNone() {
        assertSame(Lineage.NONE, Lineage.of(props("spark.master", "yarn")));
        assertSame(Lineage.NONE, Lineage.of(null));
        Lineage blank = Lineage.of(props(Lineage.JOB, "   ", Lineage.RUN_ID, ""));
        assertFalse(blank.present());
        assertTrue(blank.warnings().isEmpty(), "blank is unset, not malformed");
    }

    @Test
    void malformedValuesAreIgnoredWithAWarningNamingTheProperty() {
        Lineage l = Lineage.of(props(
                Lineage.JOB, "{{ macros.OpenLineagePlugin.lineage_job_name(task_instance) }}",
                Lineage.RUN_ID, "not-a-uuid",
                Lineage.NAMESPACE, "ns\u0000\nevil",
                Lineage.ROOT_JOB, "x".repeat(100_000),
                Lineage.ROOT_RUN_ID, DAG_RUN + "; DROP TABLE application"));
        assertNull(l.job());
        assertNull(l.runId());
        assertNull(l.namespace());
        assertNull(l.rootJob());
        assertNull(l.rootRunId());
        assertFalse(l.present());
        assertEquals(5, l.warnings().size(), l.warnings().toString());
        assertTrue(l.warnings().stream().anyMatch(w -> w.startsWith(Lineage.JOB + " ignored: an unrendered template")));
        assertTrue(l.warnings().stream().anyMatch(w -> w.startsWith(Lineage.RUN_ID + " ignored: not a UUID")));
        assertTrue(l.warnings().stream().anyMatch(w -> w.startsWith(Lineage.NAMESPACE
                + " ignored: a control character ('ns??evil')")), l.warnings().toString());
        assertTrue(l.warnings().stream().anyMatch(w -> w.startsWith(Lineage.ROOT_JOB
                + " ignored: 100000 characters, more than " + Lineage.MAX_LENGTH)));
        assertTrue(l.warnings().stream().allMatch(w -> w.length() < 150), "warnings stay short: " + l.warnings());
        // a value at the bound is kept
        assertEquals(Lineage.MAX_LENGTH, Lineage.of(props(Lineage.JOB, "j".repeat(Lineage.MAX_LENGTH))).job()
                .length());
    }

    @Test
    void liveSnapshotsKeepTheLineageSettings() {
        AppConfig c = new AppConfig(props(Lineage.JOB, "d.t", Lineage.RUN_ID, TASK_RUN, "spark.executor.memory", "4g"),
                Map.of(), Map.of(), Map.of());
        assertEquals(Lineage.of(c.sparkProperties()), Lineage.of(c.jobIdentity().sparkProperties()));
        assertFalse(c.jobIdentity().sparkProperties().containsKey("spark.executor.memory"));
    }
}
