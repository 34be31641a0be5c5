package io.sparkscope.core.heuristics;

import io.sparkscope.core.text.Units;
import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link Units#fixed} must write exactly what {@code String.format("%.Nf")} writes, which it stands in for. */
class UnitsFixedTest {
    @Test
    void writesWhatTheFormatterWrites() {
        double[] edges = {0, -0.0, 0.05, 0.15, 0.25, 1.005, 2.675, 9.995, 99.95, 1023.95, -0.04, -0.05, -1.25,
                0.000001, 1e-9, 123456789.125, Double.MAX_VALUE, Double.MIN_VALUE, Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (int decimals = 0; decimals <= 2; decimals++) {
            for (double v : edges) {
                same(v, decimals);
            }
        }
        Random r = new Random(7);
        for (int i = 0; i < 100_000; i++) {
            int decimals = i % 3;
            double scale = Math.pow(10, decimals);
            // values at, just below and just above a half of the last decimal, where rounding decides
            double half = (r.nextInt(2_000_000) - 1_000_000 + 0.5) / scale;
            double any = (r.nextDouble() - 0.5) * 2048;
            for (double v : new double[] {half, Math.nextUp(half), Math.nextDown(half), any}) {
                same(v, decimals);
            }
        }
    }

    private static void same(double v, int decimals) {
        assertEquals(String.format(Locale.ROOT, "%." + decimals + "f", v), Units.fixed(v, decimals), "value " + v);
    }
}
