package io.sparkscope.server.web.model;

import io.sparkscope.core.heuristics.CauseTree;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.FixFirst;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

        /** The page's copy of the core's cause tree ({@link CauseTree}, which owns the order). */
        static Node of(CauseTree.Node n) {
            List<Node> kids = new ArrayList<>();
            for (CauseTree.Node k : n.knockOns()) {
                kids.add(of(k));
            }
            return new Node(n.finding(), kids);
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
        return of(findings, appDurationMs, Map.of());
    }

    /**
     * @param triedWithoutHelp settings an earlier run of the job changed as advised without it helping, with the
     *                         sentence that says so: findings advising them come last in "fix this first"
     */
    public static Diagnosis of(List<Finding> findings, long appDurationMs, Map<String, String> triedWithoutHelp) {
        List<Node> nodes = new ArrayList<>();
        for (CauseTree.Node n : CauseTree.of(findings)) {
            nodes.add(Node.of(n));
        }
        return new Diagnosis(FixFirst.of(CauseTree.ordered(findings), appDurationMs, triedWithoutHelp), nodes,
                findings.size());
    }
}
