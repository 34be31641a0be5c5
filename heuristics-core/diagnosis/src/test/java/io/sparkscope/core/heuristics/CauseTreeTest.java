package io.sparkscope.core.heuristics;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The one order of findings the engine ranks by and the web pages draw. */
class CauseTreeTest {
    private static Finding finding(String id, long wallMs, String causedBy) {
        Finding f = Finding.builder("H", Severity.LOW).location(id).title(id).impact(wallMs, 0, "test").build();
        return causedBy == null ? f : f.withCausedBy("H:" + causedBy);
    }

    private static List<String> ids(List<Finding> findings) {
        return findings.stream().map(Finding::id).toList();
    }

    @Test
    void rootsBySavingEachFollowedByItsKnockOns() {
        List<Finding> in = List.of(finding("small", 10, null), finding("effect", 1, "big"),
                finding("big", 100, null), finding("effectOfEffect", 5, "effect"), finding("bigger effect", 50, "big"));
        assertEquals(List.of("H:big", "H:bigger effect", "H:effect", "H:effectOfEffect", "H:small"),
                ids(CauseTree.ordered(in)));
        List<CauseTree.Node> roots = CauseTree.of(in);
        assertEquals(2, roots.size());
        assertEquals(3, roots.get(0).descendants());
    }

    /**
     * Findings whose causes name each other in a loop are roots, ranked by their saving like the others. The
     * engine's copy used to put them after everything else in arrival order, while the page ranked them: a loop
     * member with the largest saving came last in analyze and first on the page.
     */
    @Test
    void aLoopOfCausesMakesRootsRankedBySaving() {
        List<Finding> in = List.of(finding("plain", 10, null), finding("a", 500, "b"), finding("b", 1, "a"),
                finding("self", 20, "self"), finding("child of a", 3, "a"));
        assertEquals(List.of("H:a", "H:child of a", "H:self", "H:plain", "H:b"), ids(CauseTree.ordered(in)));
        assertEquals(List.of("H:a", "H:self", "H:plain", "H:b"),
                CauseTree.of(in).stream().map(n -> n.finding().id()).toList());
    }

    @Test
    void anUnknownCauseMakesARootAndARepeatedIdIsShownOnce() {
        List<Finding> in = List.of(finding("orphan", 5, "gone"), finding("x", 7, null), finding("x", 9, null));
        assertEquals(List.of("H:x", "H:orphan"), ids(CauseTree.ordered(in)));
    }
}
