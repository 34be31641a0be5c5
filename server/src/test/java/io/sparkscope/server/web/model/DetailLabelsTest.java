package io.sparkscope.server.web.model;

import io.sparkscope.core.heuristics.DetailLabel;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.server.web.model.FindingDetails.Kind;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Labels come from what a heuristic declares, before the shared vocabulary and the key's own name. */
class DetailLabelsTest {

    @Test
    void builtInHeuristicsLabelTheirOwnKeys() {
        assertEquals(new DetailLabels.Label("Slowest task ÷ median task", Kind.TIMES), DetailLabels.of("StageSkew", "ratio"));
        assertEquals(new DetailLabels.Label("Busiest executor ÷ median executor", Kind.TIMES),
                DetailLabels.of("ExecutorLoadImbalance", "ratio"));
        assertEquals(new DetailLabels.Label("Ratio", Kind.TIMES), DetailLabels.of("DiskSpill", "ratio"), "shared vocabulary");
        assertEquals(new DetailLabels.Label("Times the median of previous runs", Kind.TIMES),
                DetailLabels.of("Regression", "ratio"));
        assertEquals(new DetailLabels.Label("Max wait", Kind.DURATION_MS), DetailLabels.of("Anything", "maxWaitMs"));
    }

    @Test
    void aDeclaredLabelWinsOverTheSharedOneAndABrokenDeclarationIsSkipped() {
        Heuristic mine = new Heuristic() {
            @Override
            public String id() {
                return "Mine";
            }

            @Override
            public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
                return List.of();
            }

            @Override
            public Map<String, DetailLabel> detailLabels() {
                return Map.of("taskTimeMs", new DetailLabel("Time in my tasks", DetailLabel.Unit.DURATION_MS),
                        "lag", new DetailLabel("Lag", DetailLabel.Unit.COUNT));
            }
        };
        Heuristic broken = new Heuristic() {
            @Override
            public String id() {
                return "Broken";
            }

            @Override
            public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
                return List.of();
            }

            @Override
            public Map<String, DetailLabel> detailLabels() {
                throw new IllegalStateException("no labels");
            }
        };
        Map<String, DetailLabels.Label> declared = DetailLabels.declared(List.of(broken, mine));
        assertEquals(Map.of("Mine.taskTimeMs", new DetailLabels.Label("Time in my tasks", Kind.DURATION_MS),
                "Mine.lag", new DetailLabels.Label("Lag", Kind.COUNT)), declared);
    }

    @Test
    void everyUnitIsAKind() {
        for (DetailLabel.Unit u : DetailLabel.Unit.values()) {
            assertEquals(u.name(), DetailLabels.kind(u).name());
        }
    }
}
