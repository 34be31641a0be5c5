package io.sparkscope.server.web.page;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.server.web.model.StageTimelines;
import io.sparkscope.store.query.StageTimelineData;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SVG stays a reasonable page at the recorder's cap of 10 000 kept tasks. */
class TimelineViewTest {

    static StageTimelines.Loaded stage(int tasks, int executors, int cores, long seed) {
        Random r = new Random(seed);
        List<TaskRecord> kept = new ArrayList<>();
        long[] free = new long[executors * cores];
        for (int i = 0; i < tasks; i++) {
            int slot = i % free.length;
            long launch = Math.max(1_000_000, free[slot]) + r.nextInt(5);
            long run = i % 97 == 0 ? 20_000 + r.nextInt(20_000) : 50 + r.nextInt(400); // a few long tasks
            long finish = launch + run + 3 + r.nextInt(10);
            free[slot] = finish;
            TaskMetrics m = TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, run)
                    .set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, 2).set(TaskMetric.RESULT_SERIALIZATION_TIME, 1).build();
            kept.add(TaskRecord.builder().taskId(i).index(i).partitionId(i)
                    .executorId(String.valueOf(1 + slot / cores)).host("host").locality("PROCESS_LOCAL")
                    .launchTime(launch).finishTime(finish).status("SUCCESS").endReason("Success").metrics(m).build());
        }
        List<StageTimelineData.ExecutorRow> rows = new ArrayList<>();
        for (int e = 1; e <= executors; e++) {
            rows.add(new StageTimelineData.ExecutorRow(String.valueOf(e), "host-" + e, cores, 1, -1));
        }
        StageTimelineData d = new StageTimelineData("app-big", null, "big", 3, 0, "big stage", "COMPLETE", 48_213,
                48_213, 0, 0, 1, 2, "SAMPLED", kept, rows, Map.of());
        return new StageTimelines.Loaded(d, StageTimelines.layout(d));
    }

    static int count(String s, String regex) {
        Matcher m = Pattern.compile(regex).matcher(s);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void tenThousandBarsMakeAFewHundredKilobytesWithLimitedHoverTextAndMergedSlivers() {
        StageTimelines.Loaded l = stage(10_000, 16, 4, 1);
        long t0 = System.nanoTime();
        String html = TimelineView.render(l);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("10 000-bar timeline: %,d characters, %d ms%n", html.length(), ms);
        assertTrue(html.length() < 1_000_000, "page size " + html.length());
        assertEquals(TimelineBars.TITLE_LIMIT, count(html, "<rect class=\"hit\" data-task="), "hover text limit");
        assertTrue(html.contains("data-merged=\"true\""), "slivers merged");
        assertTrue(html.contains("Showing 10,000 of 48,213 tasks: the slowest and a uniform sample"));
        assertTrue(html.contains("Hover text on the 1,000 longest bars only."));
        assertEquals(64, l.timeline().lanes().size(), "16 executors × 4 cores");
        assertTrue(html.contains("data-lanes=\"64\""));
    }

    @Test
    void niceAxisStepsAndCompactNumbers() {
        assertEquals(1, TimelineSvg.niceStep(0.3));
        assertEquals(5, TimelineSvg.niceStep(3.2));
        assertEquals(2000, TimelineSvg.niceStep(1250));
        assertEquals(10_000, TimelineSvg.niceStep(6000));
        assertEquals("12.3", TimelineSvg.fmt(12.34));
        assertEquals("-0.5", TimelineSvg.fmt(-0.5));
        assertEquals("7", TimelineSvg.fmt(7.0));
    }
}
