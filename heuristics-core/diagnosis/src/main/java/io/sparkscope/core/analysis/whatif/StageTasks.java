package io.sparkscope.core.analysis.whatif;

import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageSummary.TaskDetail;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The task durations of one stage attempt, rebuilt from what the snapshot holds, in the order the simulation hands
 * them to slots.
 *
 * <p>The snapshot keeps every task up to a cap, past it the slowest N successful tasks (and every failed one) with
 * their real durations (the uniform sample it also keeps is set aside here, see {@link #slowestKept}); of the
 * rest it knows the count and the duration quantiles (Spark's rule: the value at rank {@code min(floor(q·n), n−1)}
 * of the n successful tasks, sorted). Because the kept tasks are the slowest, every other successful task holds one
 * of the ranks {@code 0 … n−k−1}; each gets the duration read off the quantile knots {@code (rank, value)} by linear
 * interpolation at its own rank, capped at the fastest kept task. That is exact at every knot and when all tasks
 * were kept, and it keeps the rebuilt stage's distribution the recorded one. Ended tasks neither kept nor covered by
 * the quantiles (killed speculative copies) get the interpolated median. Tasks still running are left out: their
 * duration is unknown.
 *
 * @param durations     ms, in simulation order
 * @param reconstructed how many of them were rebuilt from quantiles rather than kept
 */
record StageTasks(long[] durations, int reconstructed) {
    /** Golden-ratio step: spreads reconstructed tasks among the kept ones without clumping short or long ones. */
    private static final double PHI_INVERSE = 0.6180339887498949;

    long total() {
        long t = 0;
        for (long d : durations) {
            t += d;
        }
        return t;
    }

    long max() {
        long m = 0;
        for (long d : durations) {
            m = Math.max(m, d);
        }
        return m;
    }

    static StageTasks of(StageSummary stage, TaskOrder order) {
        List<TaskRecord> kept = new ArrayList<>();
        int keptSuccessful = 0;
        long fastestKept = Long.MAX_VALUE;
        for (TaskRecord t : slowestKept(stage)) {
            if (!t.timesKnown()) {
                continue; // running, or its span unknown: rebuilt from the quantiles like the tasks not kept
            }
            kept.add(t);
            if ("SUCCESS".equals(t.status())) {
                keptSuccessful++;
                fastestKept = Math.min(fastestKept, t.durationMs());
            }
        }
        // Each task id once: a finished task reported again as Resubmitted did not run again under that id.
        long ended = stage.endedTasks();
        int rest = (int) Math.max(0, ended - kept.size());
        long[] rebuilt = rebuild(stage.taskSummary(), keptSuccessful, rest, fastestKept);

        if (order == TaskOrder.LONGEST_FIRST) {
            long[] all = new long[kept.size() + rebuilt.length];
            int i = 0;
            for (TaskRecord t : kept) {
                all[i++] = Math.max(0, t.durationMs());
            }
            System.arraycopy(rebuilt, 0, all, i, rebuilt.length);
            Arrays.sort(all);
            reverse(all);
            return new StageTasks(all, rebuilt.length);
        }
        return new StageTasks(launchOrder(stage, kept, rebuilt), rebuilt.length);
    }

    /**
     * The kept tasks this reconstruction may treat as "the slowest": all of them, except when the stage was sampled
     * ({@link TaskDetail#SAMPLED}), where only the slowest half of the successful and killed ones is (the other half
     * is a uniform sample, whose fast tasks would wrongly cap every rebuilt one); failed ones always.
     */
    private static List<TaskRecord> slowestKept(StageSummary stage) {
        if (stage.taskDetail() != TaskDetail.SAMPLED) {
            return stage.keptTasks();
        }
        List<TaskRecord> others = new ArrayList<>();
        List<TaskRecord> out = new ArrayList<>();
        for (TaskRecord t : stage.keptTasks()) {
            (("FAILED".equals(t.status())) ? out : others).add(t);
        }
        others.sort(Comparator.comparingLong(TaskRecord::durationMs).reversed());
        out.addAll(0, others.subList(0, others.size() - others.size() / 2));
        return out;
    }

    /**
     * Kept tasks keep their launch times; the rebuilt ones get launch slots spread evenly from the stage's first
     * launch to its last kept launch, their durations permuted by the golden ratio so that neither the short nor the
     * long ones bunch up at one end (their real launch order is not recorded).
     */
    private static long[] launchOrder(StageSummary stage, List<TaskRecord> kept, long[] rebuilt) {
        record Launch(double at, int tieBreak, long duration) {
        }
        List<Launch> launches = new ArrayList<>();
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (TaskRecord t : kept) {
            launches.add(new Launch(t.launchTime(), 0, Math.max(0, t.durationMs())));
            first = Math.min(first, t.launchTime());
            last = Math.max(last, t.launchTime());
        }
        if (stage.firstTaskLaunchedTime() > 0) {
            first = Math.min(first, stage.firstTaskLaunchedTime());
        }
        if (first == Long.MAX_VALUE) {
            first = 0;
            last = 0;
        }
        if (last < first) {
            last = first;
        }
        Integer[] perm = new Integer[rebuilt.length];
        for (int i = 0; i < perm.length; i++) {
            perm[i] = i;
        }
        Arrays.sort(perm, Comparator.comparingDouble(i -> (i * PHI_INVERSE) % 1.0));
        for (int slot = 0; slot < rebuilt.length; slot++) {
            double at = first + (last - first) * (slot + 0.5) / rebuilt.length;
            launches.add(new Launch(at, 1, rebuilt[perm[slot]]));
        }
        launches.sort(Comparator.comparingDouble(Launch::at).thenComparingInt(Launch::tieBreak));
        long[] out = new long[launches.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = launches.get(i).duration();
        }
        return out;
    }

    /** Durations of the {@code rest} ended tasks that were not kept, as the class comment describes. */
    static long[] rebuild(TaskDistributions summary, int keptSuccessful, int rest, long fastestKept) {
        long[] out = new long[rest];
        if (rest == 0) {
            return out;
        }
        long cap = fastestKept == Long.MAX_VALUE ? Long.MAX_VALUE : fastestKept;
        if (summary == null || summary.count() == 0) {
            // Nothing but the kept tasks is known; the fastest kept one bounds the others from above.
            Arrays.fill(out, cap == Long.MAX_VALUE ? 0 : cap);
            return out;
        }
        long n = summary.count();
        double[] qs = summary.quantiles();
        double[] vs = summary.values(DistributionMetric.DURATION);
        Integer[] order = new Integer[qs.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble(i -> qs[i]));
        double[] knotRank = new double[qs.length];
        double[] knotValue = new double[qs.length];
        for (int j = 0; j < order.length; j++) {
            knotRank[j] = Math.min(Math.floor(qs[order[j]] * n), n - 1);
            knotValue[j] = vs[order[j]];
        }
        int successfulRest = (int) Math.min(rest, Math.max(0, n - keptSuccessful));
        for (int rank = 0; rank < successfulRest; rank++) {
            out[rank] = Math.min(cap, Math.round(interpolate(knotRank, knotValue, rank)));
        }
        long median = Math.min(cap, Math.round(interpolate(knotRank, knotValue, Math.floor(0.5 * n))));
        for (int i = successfulRest; i < rest; i++) {
            out[i] = median;
        }
        return out;
    }

    private static double interpolate(double[] rank, double[] value, double at) {
        if (at <= rank[0]) {
            return value[0];
        }
        for (int j = 1; j < rank.length; j++) {
            if (at <= rank[j]) {
                double span = rank[j] - rank[j - 1];
                return span <= 0 ? value[j] : value[j - 1] + (value[j] - value[j - 1]) * (at - rank[j - 1]) / span;
            }
        }
        return value[value.length - 1];
    }

    private static void reverse(long[] a) {
        for (int i = 0, j = a.length - 1; i < j; i++, j--) {
            long t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}
