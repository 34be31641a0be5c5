package io.sparkscope.core.sql;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The order in which a Scala 2.13 immutable {@code Set[Int]} (or the keys of a {@code Map[Int, _]}) built by adding
 * elements one after another iterates: insertion order up to four elements ({@code Set1}…{@code Set4}), past that
 * the order of a CHAMP hash trie, which depends only on the elements' improved hashes. Spark's SQL tab iterates
 * such sets (an execution's stages, its jobs), and the REST API's job id lists and a tie between two stages' largest
 * metric values come out in this order, so Sparkscope follows it to give the same answers.
 */
public final class ScalaSetOrder {
    private ScalaSetOrder() {
    }

    /** @param insertionOrder elements in the order they were added (repeats ignored) */
    public static List<Integer> of(Collection<Integer> insertionOrder) {
        List<Integer> distinct = new ArrayList<>(new LinkedHashSet<>(insertionOrder));
        if (distinct.size() <= 4) {
            return distinct;
        }
        List<Integer> out = new ArrayList<>(distinct.size());
        int[] hashes = new int[distinct.size()];
        int[] elems = new int[distinct.size()];
        for (int i = 0; i < elems.length; i++) {
            elems[i] = distinct.get(i);
            hashes[i] = improve(elems[i]);
        }
        walk(elems, hashes, 0, out);
        return out;
    }

    /** {@code scala.collection.Hashing.improve}, applied to an Int's hash (the Int itself). */
    static int improve(int hcode) {
        int h = hcode + ~(hcode << 9);
        h = h ^ (h >>> 14);
        h = h + (h << 4);
        return h ^ (h >>> 10);
    }

    /**
     * One trie node at {@code shift}: elements alone in their 5-bit fragment are its payload, iterated first in
     * fragment order; fragments shared by several elements become sub-nodes, iterated next in fragment order.
     */
    private static void walk(int[] elems, int[] hashes, int shift, List<Integer> out) {
        @SuppressWarnings("unchecked")
        List<Integer>[] byFragment = new List[32];
        for (int i = 0; i < elems.length; i++) {
            int f = shift >= 32 ? 0 : (hashes[i] >>> shift) & 31;
            if (byFragment[f] == null) {
                byFragment[f] = new ArrayList<>(2);
            }
            byFragment[f].add(i);
        }
        for (List<Integer> group : byFragment) {
            if (group != null && group.size() == 1) {
                out.add(elems[group.get(0)]);
            }
        }
        for (List<Integer> group : byFragment) {
            if (group != null && group.size() > 1) {
                if (shift >= 32) {
                    // Equal hashes cannot happen for distinct Ints (improve is a bijection); keep them in order anyway.
                    group.forEach(i -> out.add(elems[i]));
                    continue;
                }
                int[] e = new int[group.size()];
                int[] h = new int[group.size()];
                for (int k = 0; k < e.length; k++) {
                    e[k] = elems[group.get(k)];
                    h[k] = hashes[group.get(k)];
                }
                walk(e, h, shift + 5, out);
            }
        }
    }
}
