package io.sparkscope.core.recorder;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class QuantilesTest {
    @Test
    void indexIsFloorOfQTimesNCappedAtLast() {
        assertEquals(0, Quantiles.index(0.05, 10));
        assertEquals(2, Quantiles.index(0.25, 10));
        assertEquals(5, Quantiles.index(0.5, 10));
        assertEquals(9, Quantiles.index(0.95, 10));
        assertEquals(9, Quantiles.index(1.0, 10));
        assertEquals(0, Quantiles.index(0.0, 10));
        assertEquals(0, Quantiles.index(0.99, 1));
        // floor, not rounding: 0.75 * 3 = 2.25 -> 2
        assertEquals(2, Quantiles.index(0.75, 3));
        // 0.5 * 3 = 1.5 -> 1 (nearest-rank would also say 1; interpolation would not)
        assertEquals(1, Quantiles.index(0.5, 3));
    }

    @Test
    void singleValueIsEveryQuantile() {
        assertArrayEquals(new double[] {7, 7, 7}, Quantiles.of(new long[] {7}, 1, new double[] {0, 0.5, 1}));
    }

    @Test
    void noInterpolationAndTies() {
        long[] v = {40, 10, 30, 20, 20};
        // sorted: 10 20 20 30 40
        assertArrayEquals(new double[] {10, 20, 20, 30, 40},
                Quantiles.of(v, 5, new double[] {0.05, 0.25, 0.5, 0.75, 0.95}));
        assertArrayEquals(new long[] {40, 10, 30, 20, 20}, v, "input left unsorted");
    }

    @Test
    void onlyFirstNValuesCount() {
        assertArrayEquals(new double[] {1, 2}, Quantiles.of(new long[] {2, 1, 99, 99}, 2, new double[] {0, 1}));
    }

    @Test
    void emptyIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> Quantiles.of(new long[0], 0, new double[] {0.5}));
    }

    /** The values a full sort gives at the quantiles' ranks: the rule the selection must reproduce exactly. */
    private static double[] bySorting(long[] values, int n, double[] quantiles) {
        long[] sorted = Arrays.copyOf(values, n);
        Arrays.sort(sorted);
        double[] out = new double[quantiles.length];
        for (int i = 0; i < quantiles.length; i++) {
            out[i] = sorted[Quantiles.index(quantiles[i], n)];
        }
        return out;
    }

    @Test
    void selectionEqualsSortingOnManyShapes() {
        SplittableRandom random = new SplittableRandom(42);
        double[][] quantileSets = {{0.05, 0.25, 0.5, 0.75, 0.95}, {0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0},
                {1.0, 0.5, 0.0, 0.5}, {0.999}, {0.0}};
        for (int n : new int[] {1, 2, 3, 5, 23, 24, 25, 100, 1000, 8000, 20_000}) {
            for (int shape = 0; shape < 7; shape++) {
                long[] v = new long[n + 3]; // values past n must be ignored
                for (int i = 0; i < v.length; i++) {
                    v[i] = switch (shape) {
                        case 0 -> random.nextLong();                       // all distinct, full range
                        case 1 -> random.nextInt(3);                       // few distinct values (tiny tasks' zeros)
                        case 2 -> 0;                                       // all equal
                        case 3 -> i;                                       // ascending
                        case 4 -> n - i;                                   // descending
                        case 5 -> Math.min(i, n - i);                      // organ pipe (bad for median-of-three)
                        default -> random.nextInt(10) == 0 ? random.nextLong(1_000_000_000L) : 5; // skewed
                    };
                }
                long[] before = v.clone();
                for (double[] q : quantileSets) {
                    String what = "n=" + n + " shape=" + shape + " q=" + Arrays.toString(q);
                    assertArrayEquals(bySorting(v, n, q), Quantiles.of(v, n, q), what);
                    assertArrayEquals(before, v, "input left as it was: " + what);
                }
            }
        }
    }

    @Test
    void knownValuesSelectionEqualsSortingOfTheKnownOnes() {
        SplittableRandom random = new SplittableRandom(7);
        long[] v = new long[5000];
        long[] known = new long[v.length];
        int k = 0;
        for (int i = 0; i < v.length; i++) {
            v[i] = random.nextInt(4) == 0 ? -1 : random.nextInt(50);
            if (v[i] >= 0) {
                known[k++] = v[i];
            }
        }
        double[] q = {0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0};
        assertArrayEquals(bySorting(known, k, q), Quantiles.ofKnown(v, v.length, q));
        assertArrayEquals(new double[q.length], Quantiles.ofKnown(new long[] {-1, -1}, 2, q), "none known");
    }

    @Test
    void selectPutsTheRankInPlaceWithSmallerBeforeAndLargerAfter() {
        long[] a = new SplittableRandom(3).longs(3000, 0, 100).toArray();
        Quantiles.select(a, 0, a.length - 1, 1234);
        long[] sorted = a.clone();
        Arrays.sort(sorted);
        assertEquals(sorted[1234], a[1234]);
        for (int i = 0; i < a.length; i++) {
            if (i < 1234) {
                org.junit.jupiter.api.Assertions.assertTrue(a[i] <= a[1234], "before the rank at " + i);
            } else {
                org.junit.jupiter.api.Assertions.assertTrue(a[i] >= a[1234], "after the rank at " + i);
            }
        }
    }

    /** The in-place forms, used on a completed stage's columns, give what the copying forms give. */
    @Test
    void inPlaceGivesTheSameAsACopy() {
        SplittableRandom random = new SplittableRandom(7);
        double[] qs = {0, 0.05, 0.25, 0.5, 0.75, 0.95, 1};
        for (int round = 0; round < 200; round++) {
            int n = 1 + random.nextInt(300);
            long[] v = new long[n + random.nextInt(5)]; // unused room past n, as a column has
            for (int i = 0; i < v.length; i++) {
                v[i] = random.nextInt(4) == 0 ? -1 : random.nextLong(1_000);
            }
            assertArrayEquals(Quantiles.of(v, n, qs), Quantiles.inPlace(v.clone(), n, qs));
            assertArrayEquals(Quantiles.ofKnown(v, n, qs), Quantiles.knownInPlace(v.clone(), n, qs));
        }
    }
}
