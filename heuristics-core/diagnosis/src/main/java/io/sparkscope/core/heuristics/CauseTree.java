package io.sparkscope.core.heuristics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Findings arranged by cause: every finding that is no other finding's knock-on is a root, roots in order of their
 * estimated saving (HIGH before LOW on equal savings), each followed by its knock-ons, ordered the same way, depth
 * first. The engine ranks its findings with it and the web pages draw it, so both show the same order. Stable:
 * equal findings keep the order they came in.
 *
 * <p>A {@code causedBy} that names no finding, or a chain of {@code causedBy} that comes back to where it started (a
 * custom heuristic's mistake, a damaged store), makes the finding a root: it is ranked and shown like any other
 * rather than dropped or left at the end.
 */
public final class CauseTree {
    private CauseTree() {
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

    /** The roots, each with its knock-ons; a finding whose id was seen before is left out. */
    public static List<Node> of(List<Finding> findings) {
        Map<String, Finding> byId = new HashMap<>();
        for (Finding f : findings) {
            byId.putIfAbsent(f.id(), f);
        }
        Map<String, List<Finding>> children = new HashMap<>();
        List<Finding> roots = new ArrayList<>();
        for (Finding f : findings) {
            if (f.causedBy() != null && byId.containsKey(f.causedBy()) && !inCycle(f, byId)) {
                children.computeIfAbsent(f.causedBy(), k -> new ArrayList<>()).add(f);
            } else {
                roots.add(f);
            }
        }
        roots.sort(Ranking.BY_IMPACT);
        Set<String> placed = new HashSet<>();
        List<Node> nodes = new ArrayList<>();
        for (Finding r : roots) {
            if (placed.add(r.id())) {
                nodes.add(node(r, children, placed));
            }
        }
        return nodes;
    }

    /** The same order as one list: each root, then its knock-ons depth first. */
    public static List<Finding> ordered(List<Finding> findings) {
        List<Finding> out = new ArrayList<>(findings.size());
        for (Node n : of(findings)) {
            flatten(n, out);
        }
        return out;
    }

    private static void flatten(Node n, List<Finding> out) {
        out.add(n.finding());
        for (Node k : n.knockOns()) {
            flatten(k, out);
        }
    }

    /**
     * Whether following causedBy from {@code f} comes back to it (a finding naming itself included). A chain that
     * runs into a loop elsewhere does not count: the loop's members become roots and {@code f} stays under its
     * cause.
     */
    private static boolean inCycle(Finding f, Map<String, Finding> byId) {
        Set<String> seen = new HashSet<>();
        Finding at = f;
        while (at != null && at.causedBy() != null) {
            if (at.causedBy().equals(f.id())) {
                return true;
            }
            if (!seen.add(at.id())) {
                return false;
            }
            at = byId.get(at.causedBy());
        }
        return false;
    }

    private static Node node(Finding f, Map<String, List<Finding>> children, Set<String> placed) {
        List<Finding> kids = new ArrayList<>(children.getOrDefault(f.id(), List.of()));
        kids.sort(Ranking.BY_IMPACT);
        List<Node> out = new ArrayList<>();
        for (Finding k : kids) {
            if (placed.add(k.id())) {
                out.add(node(k, children, placed));
            }
        }
        return new Node(f, out);
    }
}
