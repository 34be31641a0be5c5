package io.sparkscope.core.heuristics;

import io.sparkscope.core.text.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The short "fix this first" list that opens the report, {@code analyze} and the application page: at most three
 * root causes (findings that are not knock-on effects of another) with the largest estimated saving, each as one
 * sentence with its numbers; then root causes whose fix only frees idle executor cores (the run takes as long, other
 * applications get the cores) or, for a LOW one, shortens the run by less than 1 % of it (its task time saved is core
 * time too), most core time first; then HIGH root causes whose saving cannot be estimated, saying so. Findings one
 * remedy fixes (the same setting advised, the same recommendation, or the same stages) share one item, so one remedy
 * never takes several places. Built from findings as the engine ranks them.
 *
 * @param items at most {@link #MAX_ITEMS}, largest saving first, those without an estimate last
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
     * @param also      ids of other root causes the same remedy fixes (same setting advised, same recommendation or
     *                  same stages), named in the sentence rather than given places of their own
     * @param savingEstimated false for a HIGH finding whose saving the snapshot cannot tell ("saving not estimated");
     *                        true also when the saving is only idle core time freed
     */
    public record Item(String findingId, String heuristic, Severity severity, String title, Impact impact,
                       List<String> knockOns, String sentence, List<String> also, boolean savingEstimated) {
        public Item {
            knockOns = List.copyOf(knockOns);
            also = also == null ? List.of() : List.copyOf(also);
        }

        /** An item with a saving and nothing sharing its remedy (what the list held before items were shared). */
        public Item(String findingId, String heuristic, Severity severity, String title, Impact impact,
                    List<String> knockOns, String sentence) {
            this(findingId, heuristic, severity, title, impact, knockOns, sentence, List.of(), true);
        }
    }

    /**
     * @param ranked        findings in the engine's order
     * @param appDurationMs the application's wall time, to put the saving in proportion (0 when unknown)
     */
    public static FixFirst of(List<Finding> ranked, long appDurationMs) {
        return of(ranked, appDurationMs, Map.of());
    }

    /**
     * The list, where a finding advising a setting an earlier run of the same job already changed without it helping
     * comes after the others, its sentence saying so.
     *
     * @param triedWithoutHelp setting key → the sentence that says what changing it did (empty: nothing tried)
     */
    public static FixFirst of(List<Finding> ranked, long appDurationMs, Map<String, String> triedWithoutHelp) {
        List<Finding> roots = new ArrayList<>();
        for (Finding f : ranked) {
            // A fix that only frees idle cores is still a fix: listed after those that shorten the run.
            if (f.causedBy() == null && (f.impact().saves() || f.impact().freesCoresOnly()
                    || f.severity() == Severity.HIGH)) {
                roots.add(f);
            }
        }
        roots.sort(Ranking.fixFirst(appDurationMs));
        // A stable sort: the tried advice goes last, the rest keeps the ranking's order.
        roots.sort(java.util.Comparator.comparing(f -> tried(f, triedWithoutHelp) != null));
        // Each root joins the first slot whose remedy it shares; a slot is opened only while there is room.
        List<List<Finding>> slots = new ArrayList<>();
        for (Finding f : roots) {
            List<Finding> shared = null;
            for (List<Finding> slot : slots) {
                if (slot.stream().anyMatch(g -> Ranking.sameRemedy(f, g))) {
                    shared = slot;
                    break;
                }
            }
            if (shared != null) {
                shared.add(f);
            } else if (slots.size() < MAX_ITEMS) {
                slots.add(new ArrayList<>(List.of(f)));
            }
        }
        List<Item> items = new ArrayList<>();
        for (List<Finding> slot : slots) {
            Finding f = slot.get(0);
            List<String> knockOns = knockOns(f.id(), ranked);
            List<Finding> also = slot.subList(1, slot.size());
            String tried = tried(f, triedWithoutHelp);
            String sentence = sentence(f, knockOns.size(), also, appDurationMs);
            items.add(new Item(f.id(), f.heuristic(), f.severity(), f.title(), f.impact(), knockOns,
                    tried == null ? sentence : sentence + " Put after the others: tried on an earlier run of this job, "
                            + tried, also.stream().map(Finding::id).toList(), estimated(f.impact())));
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

    private static String sentence(Finding f, int knockOns, List<Finding> also, long appMs) {
        Impact i = f.impact();
        StringBuilder b = new StringBuilder();
        b.append(title(f));
        if (i.freesCoresOnly()) {
            b.append(": fixing it could free about ").append(Units.duration(i.coreMs()))
                    .append(" of idle executor core time for other applications");
        } else if (!i.saves()) {
            b.append(": saving not estimated (the snapshot cannot tell what fixing it would save)");
        } else {
            b.append(": fixing it could save about ");
        }
        if (!i.saves()) {
            // nothing more to say about the amount
        } else if (i.wallMs() > 0) {
            b.append(Units.duration(i.wallMs()));
            b.append(appMs > 0 ? " of the application's " + Units.duration(appMs) : " of wall time");
            if (i.taskMs() > 0) {
                b.append(" and ").append(Units.duration(i.taskMs())).append(" of task time");
            }
        } else {
            b.append(Units.duration(i.taskMs())).append(" of task time");
        }
        if (estimated(i) && !i.basis().isBlank()) {
            b.append(" (").append(i.basis()).append(")");
        }
        if (knockOns > 0) {
            b.append("; it also causes ").append(knockOns).append(knockOns == 1 ? " other finding" : " other findings");
        }
        if (!also.isEmpty()) {
            b.append("; the same fix also covers ");
            for (int k = 0; k < also.size(); k++) {
                b.append(k == 0 ? "" : k == also.size() - 1 ? " and " : ", ").append(title(also.get(k)));
            }
        }
        return b.append('.').toString();
    }

    /** Whether the item names a saving: shorter run or tasks, or idle core time freed. */
    private static boolean estimated(Impact i) {
        return i.saves() || i.freesCoresOnly();
    }

    /** The sentence about the first setting {@code f} advises that was tried without help, or null. */
    private static String tried(Finding f, Map<String, String> triedWithoutHelp) {
        for (SettingAdvice a : f.advice()) {
            String why = triedWithoutHelp.get(a.key());
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    private static String title(Finding f) {
        return f.title().isBlank() ? f.heuristic() : f.title();
    }
}
