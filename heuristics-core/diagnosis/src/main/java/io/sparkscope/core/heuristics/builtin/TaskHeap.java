package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.text.Units;

import java.util.OptionalLong;

/**
 * The heap tasks ran in and the setting that sizes it ({@code spark.driver.memory} in local mode, else
 * {@code spark.executor.memory}), for findings that advise more of it.
 *
 * <p>The setting is not always the heap in force: a driver JVM that spark-submit did not start (local mode inside an
 * application's own JVM, a notebook, a test) has the heap that JVM was given, and Spark's default of 1g says nothing
 * about it. The heap the executors measured does: each block manager reports its storage and execution memory, which
 * Spark sizes as (heap − 300 MiB reserved) × {@code spark.memory.fraction}. When that heap is far from the setting's
 * (more than the JVM's own bookkeeping explains), it is the one in force, named as measured, and more is advised on
 * top of it: advice never asks for a heap at or below the one tasks had.
 *
 * @param key    the setting that sizes the task heap
 * @param bytes  the heap in force: the setting's, or the measured one when they disagree
 * @param now    the value in force as advice names it
 */
public record TaskHeap(String key, long bytes, SparkSettings.Value now) {
    /** Memory Spark keeps out of the heap before it shares the rest between storage, execution and user memory. */
    static final long RESERVED_BYTES = 300 * Units.MiB;
    /**
     * A JVM reports a little less heap than its -Xmx (one survivor space with the parallel collector, about 10 %): a
     * measured heap this close under the setting is the setting's.
     */
    static final double JVM_SHARE = 0.85;
    /** Above the setting by more than rounding: the heap came from elsewhere. */
    static final double ABOVE_SHARE = 1.05;

    public static TaskHeap of(AppSnapshot app, SparkSettings conf) {
        String key = Facts.taskMemoryKey(conf);
        long setting = Facts.taskMemoryBytes(conf);
        OptionalLong measured = measured(app, conf);
        if (measured.isPresent() && setting > 0) {
            long m = measured.getAsLong();
            if (m < JVM_SHARE * setting || m > ABOVE_SHARE * setting) {
                return new TaskHeap(key, m, new SparkSettings.Value(Units.sparkSize(m),
                        SettingAdvice.ValueSource.MEASURED));
            }
        }
        return new TaskHeap(key, setting, conf.current(key));
    }

    /**
     * The heap of the executors that ran tasks (the largest), from the storage and execution memory their block
     * managers reported; empty when none reported it.
     */
    static OptionalLong measured(AppSnapshot app, SparkSettings conf) {
        double fraction = fraction(conf);
        long offHeap = conf.bool("spark.memory.offHeap.enabled", false)
                ? conf.size("spark.memory.offHeap.size", 1).orElse(0) : 0;
        long best = 0;
        for (ExecutorSummary e : Facts.taskRunners(app)) {
            long unified = e.maxOnHeapMemory() > 0 ? e.maxOnHeapMemory() : e.maxMemory() - offHeap;
            if (unified > 0) {
                best = Math.max(best, Math.round(unified / fraction) + RESERVED_BYTES);
            }
        }
        return best > 0 ? OptionalLong.of(roundToMiB(best)) : OptionalLong.empty();
    }

    /** Advice for half as much heap again as is in force, rounded to a whole MiB. */
    public SettingAdvice more(String reason) {
        return new SettingAdvice(key, now.value(), now.source(), Units.sparkSize(roundToMiB(bytes * 3 / 2)), reason);
    }

    private static double fraction(SparkSettings conf) {
        try {
            double f = Double.parseDouble(conf.get("spark.memory.fraction", "0.6").trim());
            return f > 0 && f <= 1 ? f : 0.6;
        } catch (NumberFormatException e) {
            return 0.6;
        }
    }

    private static long roundToMiB(long bytes) {
        return Math.max(Units.MiB, Math.round((double) bytes / Units.MiB) * Units.MiB);
    }
}
