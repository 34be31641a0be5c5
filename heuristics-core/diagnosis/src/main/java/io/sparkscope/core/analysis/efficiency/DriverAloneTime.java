package io.sparkscope.core.analysis.efficiency;

import io.sparkscope.core.analysis.timeline.NoTaskGaps;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskSpanSummary;

import java.util.List;

/**
 * The stretches of an application in which no task ran anywhere, so only the driver worked ({@link NoTaskGaps}, the
 * sweep the heuristics' split of no-task time reads too), indexed to sum them within any executor's lifetime.
 *
 * <p>A long-running application's snapshot lists only its recent stages; the older ones are summed up in the run's
 * totals as one union of task spans ({@link TaskSpanSummary}): where it ends and how much of it some task covered.
 * That stretch is then one block, [start, its end), with its driver-alone time known in total but not where inside
 * it; the listed stages' gaps follow it exactly, as a sweep over every stage would continue from there. An executor
 * that lived through the whole block gets all of the block's alone time, exactly; one that lived through part of it
 * gets the part in proportion to its share of the block's length (a driver that runs jobs one after another idles
 * about evenly).
 */
final class DriverAloneTime {
    private final long blockFrom;
    private final long blockTo;
    private final long blockAloneMs;
    private final long[] from;
    private final long[] to;

    private DriverAloneTime(long blockFrom, long blockTo, long blockAloneMs, long[] from, long[] to) {
        this.blockFrom = blockFrom;
        this.blockTo = blockTo;
        this.blockAloneMs = blockAloneMs;
        this.from = from;
        this.to = to;
    }

    /**
     * @param earlier the union of the task spans of the stages not listed (the run's totals), or null when the list
     *                holds every stage
     */
    static DriverAloneTime of(List<StageSummary> stages, TaskSpanSummary earlier, long start, long end) {
        long cursor = start;
        long blockAlone = 0;
        if (earlier != null) {
            // the folded stages cover [start, their end) but for the alone time their union left open
            cursor = Math.max(start, Math.min(end, earlier.to()));
            long busy = Math.min(Math.max(0, earlier.busyMs()), cursor - start);
            blockAlone = cursor - start - busy;
        }
        List<NoTaskGaps.Gap> gaps = NoTaskGaps.of(stages, start, end, cursor, null);
        long[] f = new long[gaps.size()];
        long[] t = new long[gaps.size()];
        for (int i = 0; i < gaps.size(); i++) {
            f[i] = gaps.get(i).from();
            t[i] = gaps.get(i).to();
        }
        return new DriverAloneTime(start, cursor, blockAlone, f, t);
    }

    long totalMs() {
        long sum = blockAloneMs;
        for (int i = 0; i < from.length; i++) {
            sum += to[i] - from[i];
        }
        return sum;
    }

    /** The driver-alone time within [a, b). O(log gaps + gaps overlapped). */
    long within(long a, long b) {
        if (b <= a) {
            return 0;
        }
        long sum = 0;
        long blockLength = blockTo - blockFrom;
        if (blockAloneMs > 0 && blockLength > 0) {
            long overlap = Math.min(b, blockTo) - Math.max(a, blockFrom);
            if (overlap >= blockLength) {
                sum += blockAloneMs;
            } else if (overlap > 0) {
                sum += Math.round((double) blockAloneMs * overlap / blockLength);
            }
        }
        if (from.length == 0) {
            return sum;
        }
        int lo = 0;
        int hi = from.length;
        while (lo < hi) { // first gap ending after a
            int mid = (lo + hi) >>> 1;
            if (to[mid] <= a) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo; i < from.length && from[i] < b; i++) {
            sum += Math.min(b, to[i]) - Math.max(a, from[i]);
        }
        return sum;
    }
}
