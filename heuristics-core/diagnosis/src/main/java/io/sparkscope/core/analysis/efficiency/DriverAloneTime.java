package io.sparkscope.core.analysis.efficiency;

import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskSpanSummary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The stretches of an application in which no task ran anywhere, so only the driver worked: the application's span
 * minus the union of the stages' task spans [first task launch, last task finish]. O(stages · log stages).
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
        long blockTo = cursor;
        List<long[]> spans = new ArrayList<>();
        for (StageSummary s : stages) {
            if (s.firstTaskLaunchedTime() <= 0) {
                continue;
            }
            long stop = s.lastTaskFinishedTime() > 0 ? s.lastTaskFinishedTime() : end;
            long a = Math.max(start, s.firstTaskLaunchedTime());
            long b = Math.min(end, stop);
            if (b > a) {
                spans.add(new long[]{a, b});
            }
        }
        spans.sort(Comparator.comparingLong(x -> x[0]));
        List<long[]> gaps = new ArrayList<>();
        for (long[] sp : spans) {
            if (sp[0] > cursor) {
                gaps.add(new long[]{cursor, sp[0]});
            }
            cursor = Math.max(cursor, sp[1]);
        }
        if (end > cursor) {
            gaps.add(new long[]{cursor, end});
        }
        long[] f = new long[gaps.size()];
        long[] t = new long[gaps.size()];
        for (int i = 0; i < gaps.size(); i++) {
            f[i] = gaps.get(i)[0];
            t[i] = gaps.get(i)[1];
        }
        return new DriverAloneTime(start, blockTo, blockAlone, f, t);
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
