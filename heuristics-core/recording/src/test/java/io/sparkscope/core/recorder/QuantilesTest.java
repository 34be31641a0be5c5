package io.sparkscope.core.recorder;

import org.junit.jupiter.api.Test;

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

    /** The in-place forms, used on a completed stage's columns, give what the copying forms give. */
    @Test
    void sortingInPlaceGivesTheSameAsACopy() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        double[] qs = {0, 0.05, 0.25, 0.5, 0.75, 0.95, 1};
        for (int round = 0; round < 200; round++) {
            int n = 1 + random.nextInt(300);
            long[] v = new long[n + random.nextInt(5)]; // unused room past n, as a column has
            for (int i = 0; i < v.length; i++) {
                v[i] = random.nextInt(4) == 0 ? -1 : random.nextLong(1_000);
            }
            assertArrayEquals(Quantiles.of(v, n, qs), Quantiles.sorting(v.clone(), n, qs));
            assertArrayEquals(Quantiles.ofKnown(v, n, qs), Quantiles.knownSorting(v.clone(), n, qs));
        }
    }
}
