package io.sparkscope.core.analysis.efficiency;

import io.sparkscope.core.model.StageSummary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The stretches of an application in which no task ran anywhere, so only the driver worked: the application's span
 * minus the union of the stages' task spans [first task launch, last task finish]. O(stages · log stages).
 */
final class DriverAloneTime {
    private final long[] from;
    private final long[] to;

    private DriverAloneTime(long[] from, long[] to) {
        this.from = from;
        this.to = to;
    }

    static DriverAloneTime of(List<StageSummary> stages, long start, long end) {
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
        long cursor = start;
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
        return new DriverAloneTime(f, t);
    }

    long totalMs() {
        long sum = 0;
        for (int i = 0; i < from.length; i++) {
            sum += to[i] - from[i];
        }
        return sum;
    }

    /** The driver-alone time within [a, b). O(log gaps + gaps overlapped). */
    long within(long a, long b) {
        if (b <= a || from.length == 0) {
            return 0;
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
        long sum = 0;
        for (int i = lo; i < from.length && from[i] < b; i++) {
            sum += Math.min(b, to[i]) - Math.max(a, from[i]);
        }
        return sum;
    }
}
