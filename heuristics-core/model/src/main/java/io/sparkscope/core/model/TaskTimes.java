package io.sparkscope.core.model;

/**
 * The one rule for the task times derived from a task's driver-stamped timestamps, whatever the source (listener,
 * event log, History Server REST): a derived time is either known and plausible, or {@link #UNKNOWN}, never a negative
 * or absurd number.
 *
 * <p>A task's span is known when its launch and finish times are both set ({@code > 0}; Spark writes 0 for "not yet"
 * and readers map unparsable values to -1), the finish is not before the launch, and the span is at most
 * {@link #MAX_TASK_DURATION_MS}. A TaskEnd with {@code "Launch Time": 0} would otherwise give a task of 50 years.
 * Every valid Spark log passes, so for them the derived times are exactly Spark's; a task whose span is unknown is
 * left out of the duration sums and of the duration, scheduler-delay and getting-result quantiles (its metrics still
 * count, as they do not depend on these timestamps).
 */
public final class TaskTimes {
    /** Returned for a derived time that cannot be computed from the timestamps given. */
    public static final long UNKNOWN = -1;
    /**
     * The longest task span believed: a year. Long-lived tasks exist (a streaming receiver runs for the
     * application's life), but not for longer than that; beyond it the timestamps are wrong, not the task long.
     */
    public static final long MAX_TASK_DURATION_MS = 366L * 24 * 3600 * 1000;

    private TaskTimes() {
    }

    /** {@code finish − launch}, or {@link #UNKNOWN} when either is unset or the span is impossible. */
    public static long duration(long launchTime, long finishTime) {
        if (launchTime <= 0 || finishTime <= 0 || finishTime < launchTime) {
            return UNKNOWN;
        }
        long span = finishTime - launchTime;
        return span <= MAX_TASK_DURATION_MS ? span : UNKNOWN;
    }

    public static boolean known(long launchTime, long finishTime) {
        return duration(launchTime, finishTime) != UNKNOWN;
    }

    /**
     * Spark's getting-result time: {@code finish − gettingResultTime} when the driver fetched the result
     * ({@code gettingResultTime > 0}), else 0. {@link #UNKNOWN} when the span is unknown, or the fetch did not start
     * inside it.
     */
    public static long gettingResult(long launchTime, long gettingResultTime, long finishTime) {
        if (duration(launchTime, finishTime) == UNKNOWN) {
            return UNKNOWN;
        }
        if (gettingResultTime <= 0) {
            return 0;
        }
        return gettingResultTime >= launchTime && gettingResultTime <= finishTime
                ? finishTime - gettingResultTime : UNKNOWN;
    }
}
