package io.sparkscope.archive;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BinsTest {
    private static LogRef log(int i, long size) {
        return new LogRef("/logs/app-" + i, "/logs/app-" + i, false, size, 0, false);
    }

    @Test
    void everyLogGoesToOneTaskAndTheTasksCarryAboutTheSameBytes() {
        List<LogRef> logs = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < 200; i++) {
            long size = 1_000L * (1 + (i * 7919L) % 97) + (i == 3 ? 5_000_000 : 0);
            logs.add(log(i, size));
            total += size;
        }
        List<List<LogRef>> bins = Bins.balance(logs, 4);
        assertEquals(4, bins.size());
        Set<String> seen = new HashSet<>();
        bins.forEach(b -> b.forEach(l -> assertTrue(seen.add(l.key()), "twice: " + l.key())));
        assertEquals(200, seen.size());
        long biggest = bins.stream().mapToLong(Bins::bytes).max().orElseThrow();
        // the 5 MB log alone outweighs a fair share: it is a task of its own, the others share the rest evenly
        assertEquals(5_000_000 + 1_000L * (1 + (3 * 7919L) % 97), biggest);
        long others = (total - biggest) / 3;
        for (List<LogRef> b : bins) {
            if (Bins.bytes(b) != biggest) {
                assertTrue(Math.abs(Bins.bytes(b) - others) <= 97_000, Bins.bytes(b) + " vs " + others);
            }
        }
    }

    @Test
    void largestFirstIntoTheLeastLoadedTask() {
        List<List<LogRef>> bins = Bins.balance(List.of(log(1, 10), log(2, 70), log(3, 40), log(4, 30), log(5, 50)), 2);
        // 70 → A; 50 → B; 40 → B (50 < 70); 30 → A (70 < 90); 10 → A or B: A has 100, B 90 → B
        assertEquals(List.of("/logs/app-2", "/logs/app-4"), bins.get(0).stream().map(LogRef::key).toList());
        assertEquals(List.of("/logs/app-5", "/logs/app-3", "/logs/app-1"),
                bins.get(1).stream().map(LogRef::key).toList());
        assertEquals(100, Bins.bytes(bins.get(0)));
        assertEquals(100, Bins.bytes(bins.get(1)));
    }

    @Test
    void noEmptyTasks() {
        assertEquals(1, Bins.balance(List.of(log(1, 5)), 8).size());
        assertEquals(0, Bins.balance(List.of(), 8).size());
    }
}
