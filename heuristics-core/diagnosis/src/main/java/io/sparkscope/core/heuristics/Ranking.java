package io.sparkscope.core.heuristics;

import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;

/** The order findings are shown in: larger estimated saving first, then HIGH before LOW. */
final class Ranking {
    static final Comparator<Finding> BY_IMPACT = (a, b) -> {
        int c = b.impact().compareTo(a.impact());
        return c != 0 ? c : b.severity().compareTo(a.severity());
    };

    /**
     * The "fix this first" order: findings that would shorten the run or its tasks first, largest saving first; then
     * those that only free idle core time (the run takes as long, other applications get the cores), most core time
     * first; then those whose saving cannot be estimated (only HIGH ones get there), so a guess never outranks a
     * measured saving.
     */
    static final Comparator<Finding> FIX_FIRST = Comparator
            .comparingInt((Finding f) -> f.impact().saves() ? 0 : f.impact().freesCoresOnly() ? 1 : 2)
            .thenComparing(BY_IMPACT);

    private Ranking() {
    }

    /**
     * Whether one remedy fixes both findings, so they should share one "fix this first" item: the same setting
     * advised (to the same value), the same recommendation in the same words, or the same stages.
     */
    static boolean sameRemedy(Finding a, Finding b) {
        for (SettingAdvice x : a.advice()) {
            SettingAdvice y = b.adviceFor(x.key());
            if (y != null && y.recommendedValue().equals(x.recommendedValue())) {
                return true;
            }
        }
        if (!a.recommendation().isBlank() && a.recommendation().equals(b.recommendation())) {
            return true;
        }
        if (a.stageIds().isEmpty() || b.stageIds().isEmpty()) {
            return false;
        }
        Set<String> stages = new HashSet<>(a.stageIds());
        return new HashSet<>(b.stageIds()).equals(stages);
    }
}
