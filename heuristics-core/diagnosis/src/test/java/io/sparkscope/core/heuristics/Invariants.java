package io.sparkscope.core.heuristics;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What must hold for every application's findings: advice that changes something, once per key, named in the text. */
public final class Invariants {
    private Invariants() {
    }

    public static void check(List<Finding> findings) {
        Map<String, String> valueByKey = new HashMap<>();
        Map<String, String> whoByKey = new HashMap<>();
        for (Finding f : findings) {
            for (SettingAdvice a : f.advice()) {
                assertFalse(a.recommendsCurrent(), () -> f.id() + " recommends the value in force: " + a);
                assertTrue(f.recommendation().contains(a.phrase()),
                        () -> f.id() + " does not name its advice " + a.phrase() + ": " + f.recommendation());
                String before = valueByKey.putIfAbsent(a.key(), a.recommendedValue());
                String who = whoByKey.putIfAbsent(a.key(), f.id());
                if (before != null) {
                    assertTrue(SettingAdvice.sameValue(a.key(), before, a.recommendedValue()),
                            () -> who + " and " + f.id() + " ask for different values of " + a.key() + ": " + before
                                    + " and " + a.recommendedValue());
                }
            }
            if (f.causedBy() != null) {
                assertTrue(findings.stream().anyMatch(g -> g.id().equals(f.causedBy())), f.causedBy());
            }
        }
        for (Finding f : findings) {
            assertEquals(1, findings.stream().filter(g -> g.id().equals(f.id())).count(), f.id());
        }
    }
}
