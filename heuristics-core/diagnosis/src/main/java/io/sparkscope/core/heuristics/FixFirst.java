package io.sparkscope.core.heuristics;

import io.sparkscope.core.text.Units;
import java.util.ArrayList;
import java.util.List;

/**
 * The short "fix this first" list that opens the report, {@code analyze} and the application page: at most three
 * root causes (findings that are not knock-on effects of another) with the largest estimated saving, each as one
 * sentence with its numbers. Built from findings as the engine ranks them.
 *
 * @param items at most {@link #MAX_ITEMS}, largest saving first
 */
public record FixFirst(List<Item> items) {
    public static final int MAX_ITEMS = 3;

    public FixFirst {
        items = List.copyOf(items);
    }

    /**
     * One root cause to fix.
     *
     * @param findingId the finding's id
     * @param knockOns  ids of the findings it causes, directly or through others
     * @param sentence  the item as one sentence with the numbers, e.g. "Stage 34 failed: fixing it could save about
     *                  1 min 10 s of the application's 2 min 16 s and 42 min of task time (…)."
     */
    public record Item(String findingId, String heuristic, Severity severity, String title, Impact impact,
                       List<String> knockOns, String sentence) {
        public Item {
            knockOns = List.copyOf(knockOns);
        }
    }

    /**
     * @param ranked        findings in the engine's order
     * @param appDurationMs the application's wall time, to put the saving in proportion (0 when unknown)
     */
    public static FixFirst of(List<Finding> ranked, long appDurationMs) {
        List<Finding> roots = new ArrayList<>();
        for (Finding f : ranked) {
            if (f.causedBy() == null && f.impact().saves()) {
                roots.add(f);
            }
        }
        roots.sort(Ranking.BY_IMPACT);
        List<Item> items = new ArrayList<>();
        for (Finding f : roots.subList(0, Math.min(MAX_ITEMS, roots.size()))) {
            List<String> knockOns = knockOns(f.id(), ranked);
            items.add(new Item(f.id(), f.heuristic(), f.severity(), f.title(), f.impact(), knockOns,
                    sentence(f, knockOns.size(), appDurationMs)));
        }
        return new FixFirst(items);
    }

    public boolean isEmpty() {
        return items.isEmpty();
    }

    /** The list as report lines ("" when empty), each line starting with {@code indent}. */
    public String toText(String indent) {
        if (items.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        b.append(indent).append("Fix this first:\n");
        for (int i = 0; i < items.size(); i++) {
            b.append(indent).append("  ").append(i + 1).append(". [").append(items.get(i).severity()).append("] ")
                    .append(items.get(i).sentence()).append('\n');
        }
        return b.toString();
    }

    private static List<String> knockOns(String rootId, List<Finding> ranked) {
        List<String> out = new ArrayList<>();
        List<String> frontier = new ArrayList<>(List.of(rootId));
        while (!frontier.isEmpty() && out.size() < ranked.size()) {
            List<String> next = new ArrayList<>();
            for (Finding f : ranked) {
                if (f.causedBy() != null && frontier.contains(f.causedBy()) && !out.contains(f.id())
                        && !f.id().equals(rootId)) {
                    out.add(f.id());
                    next.add(f.id());
                }
            }
            frontier = next;
        }
        return out;
    }

    private static String sentence(Finding f, int knockOns, long appMs) {
        Impact i = f.impact();
        StringBuilder b = new StringBuilder();
        String title = f.title().isBlank() ? f.heuristic() : f.title();
        b.append(title).append(": fixing it could save about ");
        if (i.wallMs() > 0) {
            b.append(Units.duration(i.wallMs()));
            b.append(appMs > 0 ? " of the application's " + Units.duration(appMs) : " of wall time");
            if (i.taskMs() > 0) {
                b.append(" and ").append(Units.duration(i.taskMs())).append(" of task time");
            }
        } else {
            b.append(Units.duration(i.taskMs())).append(" of task time");
        }
        if (!i.basis().isBlank()) {
            b.append(" (").append(i.basis()).append(")");
        }
        if (knockOns > 0) {
            b.append("; it also causes ").append(knockOns).append(knockOns == 1 ? " other finding" : " other findings");
        }
        return b.append('.').toString();
    }
}
