package io.sparkscope.core.recorder;

import io.sparkscope.core.model.TaskRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class SlowestTasksTest {
    /**
     * The heap keeps the same tasks, and gives back the same one on each replacement, as a PriorityQueue ordered by
     * {@link KeptTasks#BY_DURATION} does with poll and add: many equal durations (the task id decides), unknown times
     * (duration 0), ids out of order, and growth from a capacity of one.
     */
    @Test
    void keepsWhatAPriorityQueueByDurationKeeps() {
        SplittableRandom random = new SplittableRandom(42);
        for (int round = 0; round < 50; round++) {
            int limit = 1 + random.nextInt(200);
            SlowestTasks heap = new SlowestTasks(1);
            PriorityQueue<TaskRecord> expected = new PriorityQueue<>(KeptTasks.BY_DURATION);
            for (long id = 0; id < 2_000; id++) {
                long launch = 1_000_000 + random.nextInt(1_000);
                long finish = random.nextInt(10) == 0 ? 0 : launch + random.nextInt(round % 2 == 0 ? 20 : 100_000);
                TaskRecord t = TaskRecord.builder().taskId(id * 7_919 % 10_007).launchTime(launch)
                        .finishTime(finish).build();
                if (heap.size() < limit) {
                    heap.add(t);
                    expected.add(t);
                } else if (t.durationMs() > heap.fastestDuration()) {
                    assertEquals(expected.peek().durationMs(), heap.fastestDuration());
                    TaskRecord out = heap.replaceFastest(t);
                    assertSame(expected.poll(), out, "round " + round + ", task " + id);
                    expected.add(t);
                }
                assertEquals(expected.size(), heap.size());
            }
            List<TaskRecord> kept = new ArrayList<>();
            heap.addTo(kept);
            kept.sort(KeptTasks.BY_DURATION);
            List<TaskRecord> want = new ArrayList<>(expected);
            want.sort(KeptTasks.BY_DURATION);
            assertEquals(want.size(), kept.size());
            for (int i = 0; i < want.size(); i++) {
                assertSame(want.get(i), kept.get(i), "round " + round + ", place " + i);
            }
        }
    }
}
