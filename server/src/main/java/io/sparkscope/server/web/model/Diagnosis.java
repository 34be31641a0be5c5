package io.sparkscope.server.web.model;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.FixFirst;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An application's findings as the application page and its API show them: the short "fix this first" list, then
 * every root cause ordered by what fixing it would save, each with its knock-on findings (a stage its failure
 * cancelled, the job that failure took down) under it.
 *
 * @param fixFirst at most three root causes with their sentence ({@link FixFirst})
 * @param roots    findings that are no other finding's knock-on, largest estimated saving first (HIGH before LOW on
 *                 equal savings, then the heuristics' own order)
 * @param total    findings in all, knock-ons included
 */
public record Diagnosis(FixFirst fixFirst, List<Node> roots, int total) {
    /** Larger wall time saved first, then task time, then HIGH before LOW; a stable sort keeps the rest in order. */
    public static final Comparator<Finding> BY_IMPACT = (a, b) -> {
        int c = b.impact().compareTo(a.impact());
        return c != 0 ? c : b.severity().compareTo(a.severity());
    };

    public Diagnosis {
        roots = List.copyOf(roots);
    }

    /**
     * One finding and the findings it causes.
     *
     * @param knockOns its direct effects, each with theirs, ordered like the roots
     */
    public record Node(Finding finding, List<Node> knockOns) {
        public Node {
            knockOns = List.copyOf(knockOns);
        }

        /** Knock-ons at every depth. */
        public int descendants() {
            int n = 0;
            for (Node k : knockOns) {
                n += 1 + k.descendants();
            }
            return n;
        }
    }

    /**
     * @param findings      an application's findings (stored in the engine's order; a Regression finding the store
     *                      adds at the end is placed by its impact like the others)
     * @param appDurationMs its wall time, to put the fix-first savings in proportion (0 when unknown)
     */
    public static Diagnosis of(List<Finding> findings, long appDurationMs) {
        Map<String, Finding> byId = new HashMap<>();
        for (Finding f : findings) {
            byId.putIfAbsent(f.id(), f);
        }
        Map<String, List<Finding>> children = new HashMap<>();
        List<Finding> roots = new ArrayList<>();
        for (Finding f : findings) {
            if (f.causedBy() != null && byId.containsKey(f.causedBy()) && !f.causedBy().equals(f.id())
                    && !inCycle(f, byId)) {
                children.computeIfAbsent(f.causedBy(), k -> new ArrayList<>()).add(f);
            } else {
                roots.add(f);
            }
        }
        roots.sort(BY_IMPACT);
        Set<String> placed = new HashSet<>();
        List<Node> nodes = new ArrayList<>();
        List<Finding> ranked = new ArrayList<>();
        for (Finding r : roots) {
            if (placed.add(r.id())) {
                nodes.add(node(r, children, placed, ranked));
            }
        }
        return new Diagnosis(FixFirst.of(ranked, appDurationMs), nodes, findings.size());
    }

    /** Whether following causedBy from {@code f} comes back to it (a damaged store): then it is shown as a root. */
    private static boolean inCycle(Finding f, Map<String, Finding> byId) {
        Set<String> seen = new HashSet<>();
        Finding at = f;
        while (at != null && at.causedBy() != null) {
            if (!seen.add(at.id()) || at.causedBy().equals(f.id())) {
                return true;
            }
            at = byId.get(at.causedBy());
        }
        return false;
    }

    private static Node node(Finding f, Map<String, List<Finding>> children, Set<String> placed, List<Finding> ranked) {
        ranked.add(f);
        List<Finding> kids = new ArrayList<>(children.getOrDefault(f.id(), List.of()));
        kids.sort(BY_IMPACT);
        List<Node> out = new ArrayList<>();
        for (Finding k : kids) {
            if (placed.add(k.id())) {
                out.add(node(k, children, placed, ranked));
            }
        }
        return new Node(f, out);
    }
}
