package io.sparkscope.archive;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Spreads logs over tasks so that each task reads about as many bytes: largest first, each into the task with the
 * fewest bytes so far (longest-processing-time first, within 4/3 of the best split). Reading time follows the
 * bytes, so the tasks end at about the same time and no core idles while one task still works through the big logs.
 */
final class Bins {
    private Bins() {
    }

    /** At most {@code bins} non-empty lists (fewer when there are fewer logs), each largest first. */
    static List<List<LogRef>> balance(List<LogRef> logs, int bins) {
        int n = Math.max(1, Math.min(bins, logs.size()));
        List<List<LogRef>> out = new ArrayList<>(n);
        // {bytes so far, bin index}: ties go to the lower index, so the split is the same on every run
        PriorityQueue<long[]> load = new PriorityQueue<>(Comparator.<long[]>comparingLong(b -> b[0])
                .thenComparingLong(b -> b[1]));
        for (int i = 0; i < n; i++) {
            out.add(new ArrayList<>());
            load.add(new long[]{0, i});
        }
        List<LogRef> bySize = new ArrayList<>(logs);
        bySize.sort(Comparator.comparingLong(LogRef::size).reversed().thenComparing(LogRef::key));
        for (LogRef log : bySize) {
            long[] least = load.poll();
            out.get((int) least[1]).add(log);
            // an empty log still costs a claim and an open: never free
            least[0] += Math.max(1, log.size());
            load.add(least);
        }
        if (logs.isEmpty()) {
            out.clear();
        }
        return out;
    }

    static long bytes(List<LogRef> bin) {
        return bin.stream().mapToLong(LogRef::size).sum();
    }
}
