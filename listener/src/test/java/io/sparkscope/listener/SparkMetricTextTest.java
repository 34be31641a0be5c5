package io.sparkscope.listener;

import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.sql.ScalaSetOrder;
import io.sparkscope.core.sql.SparkMetricText;
import org.apache.spark.util.MetricUtils$;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Sparkscope's copies of two pieces of Spark's SQL tab checked against Spark's own code on the classpath: the text
 * of a metric value ({@code MetricUtils.stringValue}) and the iteration order of a Scala immutable set of ints.
 */
class SparkMetricTextTest {
    private static final String[] TYPES = {"sum", "size", "timing", "nsTiming", "average"};

    @Test
    void metricTextIsSparksForRandomValues() {
        Random rnd = new Random(42);
        int checked = 0;
        for (int round = 0; round < 4000; round++) {
            String type = TYPES[round % TYPES.length];
            int n = rnd.nextInt(7);
            long[] values = new long[n];
            long scale = switch (rnd.nextInt(5)) {
                case 0 -> 10;
                case 1 -> 5_000;
                case 2 -> 5_000_000;
                case 3 -> 5_000_000_000L;
                default -> 9_000_000_000_000_000L / Math.max(1, n);
            };
            for (int i = 0; i < n; i++) {
                values[i] = rnd.nextInt(10) == 0 ? -1 : (long) (rnd.nextDouble() * scale);
            }
            boolean driver = rnd.nextInt(4) == 0;
            long[] max = driver ? new long[0] : new long[]{0, rnd.nextInt(50), rnd.nextInt(3), rnd.nextInt(9999)};
            String spark = MetricUtils$.MODULE$.stringValue(type, values.clone(), max);
            assertEquals(spark, SparkMetricText.of(aggregate(type, values, max)),
                    type + " " + Arrays.toString(values));
            checked++;
        }
        assertEquals(4000, checked);
    }

    @Test
    void sizesAndDurationsAtTheirUnitBoundaries() {
        long[] edges = {0, 1, 999, 1000, 1023, 1024, 2047, 2048, 2049, 59_999, 60_000, 3_599_999, 3_600_000,
                (1L << 21) - 1, 1L << 21, (1L << 31) + 7, 1L << 41, 1L << 51, 1L << 61, Long.MAX_VALUE};
        for (long v : edges) {
            for (String type : new String[]{"size", "timing", "nsTiming", "average", "sum"}) {
                long[] one = {v};
                assertEquals(MetricUtils$.MODULE$.stringValue(type, one, new long[0]),
                        SparkMetricText.of(aggregate(type, one, new long[0])), type + " " + v);
            }
        }
    }

    @Test
    void setOrderIsScalas() {
        Random rnd = new Random(7);
        for (int round = 0; round < 500; round++) {
            int n = rnd.nextInt(40);
            List<Integer> added = new ArrayList<>();
            scala.collection.immutable.Set<Object> set = scala.collection.immutable.Set$.MODULE$.empty();
            for (int i = 0; i < n; i++) {
                int v = rnd.nextInt(3) == 0 ? rnd.nextInt() : rnd.nextInt(300);
                added.add(v);
                set = set.incl(v);
            }
            List<Integer> scala = new ArrayList<>();
            scala.collection.Iterator<Object> it = set.iterator();
            while (it.hasNext()) {
                scala.add((Integer) it.next());
            }
            assertEquals(scala, ScalaSetOrder.of(added), "elements " + added);
        }
    }

    /** The statistics Sparkscope's recorder keeps, computed here straight from the values. */
    private static SqlMetricAggregate aggregate(String type, long[] values, long[] max) {
        long all = 0;
        List<Long> kept = new ArrayList<>();
        for (long v : values) {
            all += v;
            if ("average".equals(type) ? v > 0 : v >= 0) {
                kept.add(v);
            }
        }
        kept.sort(null);
        int n = kept.size();
        long filtered = kept.stream().mapToLong(Long::longValue).sum();
        boolean driver = max.length == 0;
        return new SqlMetricAggregate(1, type, "sum".equals(type) ? all : filtered, n,
                n == 0 ? 0 : kept.get(0), n == 0 ? 0 : kept.get(n / 2), n == 0 ? 0 : kept.get((n - 1) / 2),
                n == 0 ? 0 : kept.get(n - 1), driver ? -1 : (int) max[1], driver ? -1 : (int) max[2],
                driver ? -1 : max[3], n, true, List.of());
    }
}
