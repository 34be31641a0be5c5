package io.sparkscope.core.analysis.whatif;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Replays one phase (a set of jobs that ran together) into a fixed number of task slots: a greedy list schedule.
 *
 * <p>A stage becomes ready when all its parents have ended; each time a slot frees, it takes the next task of the
 * ready stage with the best FIFO priority (lowest job id, then stage id, then attempt), as Spark's default FIFO
 * pool does. A slot never idles while a ready task waits. A stage ends with its last task. There is no cost for
 * launching tasks: driver-side overheads are accounted for outside, as driver-only time.
 */
final class SlotScheduler {
    private static final Comparator<StageNode> FIFO = Comparator.comparingInt(StageNode::jobId)
            .thenComparingInt(StageNode::stageId).thenComparingInt(StageNode::attemptId);

    private SlotScheduler() {
    }

    /** Wall time of the phase on {@code slots} slots, from its start to the end of its last stage. */
    static long makespan(List<StageNode> nodes, int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be >= 1, got " + slots);
        }
        int n = nodes.size();
        List<List<Integer>> children = children(nodes);
        int[] waitingOn = new int[n];
        long[] readyAt = new long[n];
        long[] end = new long[n];
        int[] next = new int[n];
        boolean[] done = new boolean[n];
        boolean[] released = new boolean[n];
        long remaining = 0;
        for (int i = 0; i < n; i++) {
            waitingOn[i] = nodes.get(i).parents().size();
            remaining += nodes.get(i).tasks().durations().length;
        }
        // Stages ready to hand out tasks, best FIFO priority first.
        List<Integer> ready = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (waitingOn[i] == 0) {
                release(i, 0, nodes, children, waitingOn, readyAt, end, done, released, ready);
            }
        }
        PriorityQueue<Long> freeAt = new PriorityQueue<>();
        for (int s = 0; s < Math.min(slots, Math.max(1, remaining)); s++) {
            freeAt.add(0L);
        }
        while (remaining > 0) {
            if (ready.isEmpty()) {
                // Only a cycle in the recorded parents can get here; break it at the best-priority blocked stage.
                int blocked = -1;
                for (int i = 0; i < n; i++) {
                    if (!released[i] && (blocked < 0 || FIFO.compare(nodes.get(i), nodes.get(blocked)) < 0)) {
                        blocked = i;
                    }
                }
                release(blocked, maxEnd(end, done), nodes, children, waitingOn, readyAt, end, done, released, ready);
                continue;
            }
            long slotFree = freeAt.peek();
            int pick = -1;
            for (int i : ready) {
                if (readyAt[i] <= slotFree) {
                    pick = i;
                    break;
                }
            }
            long start = slotFree;
            if (pick < 0) {
                // Every ready stage becomes ready later than the slot frees: wait for the earliest.
                long earliest = Long.MAX_VALUE;
                for (int i : ready) {
                    earliest = Math.min(earliest, readyAt[i]);
                }
                for (int i : ready) {
                    if (readyAt[i] == earliest) {
                        pick = i;
                        break;
                    }
                }
                start = earliest;
            }
            freeAt.poll();
            StageNode node = nodes.get(pick);
            long finish = start + node.tasks().durations()[next[pick]++];
            freeAt.add(finish);
            end[pick] = Math.max(end[pick], finish);
            remaining--;
            if (next[pick] == node.tasks().durations().length) {
                ready.remove(Integer.valueOf(pick));
                finish(pick, nodes, children, waitingOn, readyAt, end, done, released, ready);
            }
        }
        return maxEnd(end, done);
    }

    /** Wall time of the phase with unlimited slots: its longest chain of stages, each as long as its slowest task. */
    static long criticalPath(List<StageNode> nodes) {
        int n = nodes.size();
        long[] memo = new long[n];
        byte[] state = new byte[n];
        long best = 0;
        for (int i = 0; i < n; i++) {
            best = Math.max(best, longestEndingAt(i, nodes, memo, state));
        }
        return best;
    }

    private static long longestEndingAt(int i, List<StageNode> nodes, long[] memo, byte[] state) {
        if (state[i] == 2) {
            return memo[i];
        }
        if (state[i] == 1) {
            return 0; // a cycle in the recorded parents: cut it here
        }
        state[i] = 1;
        long start = 0;
        for (int p : nodes.get(i).parents()) {
            start = Math.max(start, longestEndingAt(p, nodes, memo, state));
        }
        memo[i] = start + nodes.get(i).tasks().max();
        state[i] = 2;
        return memo[i];
    }

    private static List<List<Integer>> children(List<StageNode> nodes) {
        List<List<Integer>> children = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            children.add(new ArrayList<>());
        }
        for (int i = 0; i < nodes.size(); i++) {
            for (int p : nodes.get(i).parents()) {
                children.get(p).add(i);
            }
        }
        return children;
    }

    private static void release(int i, long at, List<StageNode> nodes, List<List<Integer>> children, int[] waitingOn,
                                long[] readyAt, long[] end, boolean[] done, boolean[] released, List<Integer> ready) {
        released[i] = true;
        readyAt[i] = at;
        end[i] = at;
        if (nodes.get(i).tasks().durations().length == 0) {
            finish(i, nodes, children, waitingOn, readyAt, end, done, released, ready);
            return;
        }
        int pos = 0;
        while (pos < ready.size() && FIFO.compare(nodes.get(ready.get(pos)), nodes.get(i)) < 0) {
            pos++;
        }
        ready.add(pos, i);
    }

    private static void finish(int i, List<StageNode> nodes, List<List<Integer>> children, int[] waitingOn,
                               long[] readyAt, long[] end, boolean[] done, boolean[] released, List<Integer> ready) {
        done[i] = true;
        for (int c : children.get(i)) {
            if (--waitingOn[c] == 0 && !released[c]) {
                long at = 0;
                for (int p : nodes.get(c).parents()) {
                    at = Math.max(at, end[p]);
                }
                release(c, at, nodes, children, waitingOn, readyAt, end, done, released, ready);
            }
        }
    }

    private static long maxEnd(long[] end, boolean[] done) {
        long m = 0;
        for (int i = 0; i < end.length; i++) {
            if (done[i]) {
                m = Math.max(m, end[i]);
            }
        }
        return m;
    }
}
