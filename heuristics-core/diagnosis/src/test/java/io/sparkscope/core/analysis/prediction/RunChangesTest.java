package io.sparkscope.core.analysis.prediction;

import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.testing.SnapshotBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunChangesTest {
    private static PlanNode node(String name, PlanNode... children) {
        return new PlanNode(name, name, List.of(children), List.of());
    }

    @Test
    void operatorsAddedAndRemovedIgnoreCodegenNumbers() {
        PlanNode before = node("WholeStageCodegen (1)", node("SortMergeJoin", node("Exchange", node("Scan parquet")),
                node("Exchange", node("Scan parquet"))));
        PlanNode after = node("WholeStageCodegen (2)", node("BroadcastHashJoin", node("Scan parquet"),
                node("BroadcastExchange", node("Scan parquet"))));
        RunChanges c = RunChanges.between(SnapshotBuilder.app().id("a").sql(0, before, Map.of()).build(),
                SnapshotBuilder.app().id("b").sql(0, after, Map.of()).build());
        assertEquals(Map.of("BroadcastHashJoin", 1, "BroadcastExchange", 1), c.operatorsAdded());
        assertEquals(Map.of("SortMergeJoin", 1, "Exchange", 2), c.operatorsRemoved());
        assertTrue(c.sentences().contains("+1 BroadcastExchange, +1 BroadcastHashJoin, −2 Exchange, −1 SortMergeJoin"),
                c.sentences());
    }

    @Test
    void settingsEachRunMakesAnewAreNoChange() {
        RunChanges c = RunChanges.between(
                SnapshotBuilder.app().id("a").conf("spark.driver.port", "4040").conf("spark.executor.memory", "4g").build(),
                SnapshotBuilder.app().id("b").conf("spark.driver.port", "4041").build());
        assertEquals(List.of(new RunChanges.SettingChange("spark.executor.memory", "4g", null)), c.settings());
        assertTrue(c.sentences().contains("spark.executor.memory 4g → (unset)"), c.sentences());
    }
}
