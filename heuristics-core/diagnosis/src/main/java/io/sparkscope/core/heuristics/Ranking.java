package io.sparkscope.core.heuristics;

import java.util.Comparator;

/** The order findings are shown in: larger estimated saving first, then HIGH before LOW. */
final class Ranking {
    static final Comparator<Finding> BY_IMPACT = (a, b) -> {
        int c = b.impact().compareTo(a.impact());
        return c != 0 ? c : b.severity().compareTo(a.severity());
    };

    private Ranking() {
    }
}
