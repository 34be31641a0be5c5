package io.sparkscope.server.web.model;

import io.sparkscope.core.analysis.timeline.ExecutorSlots;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.store.query.AppTimelineQuery;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * An application's timeline laid out, without pixels: one lane per task slot of each executor (the cores Spark
 * had, never more), each executor's lifetime across its lanes, and its jobs and stage attempts as bars packed into
 * rows so that bars in a row never overlap.
 *
 * @param start           the application's start (epoch ms)
 * @param end             its end, or its last event while it runs
 * @param executors       the executors that could run tasks, in the order they appeared
 * @param lanes           lanes of all executors: Σ of their slots (one for an executor whose cores are unknown)
 * @param executorsHidden executors stored but not drawn: past the lane budget, or beyond what was read
 */
public record AppTimeline(AppTimelineQuery.Data data, long start, long end, List<Band> executors, int lanes,
                          long executorsHidden, List<Bar> jobs, int jobRows, List<Bar> stages, int stageRows,
                          int crowdedBars) {
    /** Lanes drawn at most: past them, later executors are listed below the drawing only. */
    public static final int MAX_LANES = 1_000;
    /** Rows of job or stage bars at most: a bar that finds no free row shares the last one. */
    public static final int MAX_ROWS = 40;

    /**
     * One executor's lanes and lifetime.
     *
     * @param slots tasks it could run at once ({@code cores / spark.task.cpus}), 0 when Spark did not say
     * @param from  when it was added (the application's start when unknown)
     * @param to    when it was removed (the timeline's end while alive)
     */
    public record Band(AppTimelineQuery.Executor executor, int slots, int firstLane, int lanes, long from, long to) {
    }

    /** A job or stage attempt in its row; {@code to} is the timeline's end while it runs. */
    public record Bar(AppTimelineQuery.Span span, int row, long from, long to) {
        public boolean running() {
            return span.end() <= 0;
        }
    }

    public static AppTimeline of(AppTimelineQuery.Data d) {
        var app = d.app();
        long start = app.startTime();
        long end = app.endTime() > 0 ? app.endTime() : Math.max(app.lastEventTime(), start);
        for (AppTimelineQuery.Span s : d.jobs()) {
            end = Math.max(end, s.end());
        }
        for (AppTimelineQuery.Span s : d.stages()) {
            end = Math.max(end, s.end());
        }
        SparkSettings conf = new SparkSettings(new AppConfig(d.sparkConf(), Map.of(), Map.of(), Map.of()));
        List<Band> bands = new ArrayList<>();
        int lanes = 0;
        long hidden = d.moreExecutors();
        for (AppTimelineQuery.Executor e : d.executors()) {
            int slots = ExecutorSlots.slots(e.executorId(), e.cores(), conf);
            // The driver of a cluster application runs no task: it has no lane (a local one runs them all).
            if ("driver".equals(e.executorId()) && slots == 0 && !conf.isLocal()) {
                continue;
            }
            int n = Math.max(1, slots);
            if (lanes + n > MAX_LANES) {
                hidden++;
                continue;
            }
            long from = e.addTime() > 0 ? Math.max(start, e.addTime()) : start;
            long to = e.removeTime() > 0 ? Math.min(end, Math.max(from, e.removeTime())) : end;
            bands.add(new Band(e, slots, lanes, n, from, to));
            lanes += n;
        }
        int[] crowded = new int[1];
        List<Bar> jobs = pack(d.jobs(), start, end, crowded);
        List<Bar> stages = pack(d.stages(), start, end, crowded);
        return new AppTimeline(d, start, end, bands, lanes, hidden, jobs, rows(jobs), stages, rows(stages),
                crowded[0]);
    }

    /** Cores of the drawn executors whose cores are known. */
    public int knownSlots() {
        return executors.stream().mapToInt(Band::slots).sum();
    }

    /**
     * Bars in start order, each on the lowest row free at its start; past {@link #MAX_ROWS} rows it shares the last
     * (counted in {@code crowded}). Spans that never started are left out.
     */
    static List<Bar> pack(List<AppTimelineQuery.Span> spans, long start, long end, int[] crowded) {
        List<AppTimelineQuery.Span> sorted = new ArrayList<>(spans);
        sorted.sort(Comparator.comparingLong(AppTimelineQuery.Span::start));
        List<Long> rowFree = new ArrayList<>();
        List<Bar> out = new ArrayList<>();
        for (AppTimelineQuery.Span s : sorted) {
            if (s.start() <= 0) {
                continue;
            }
            long from = Math.max(start, s.start());
            long to = s.end() > 0 ? Math.max(from, Math.min(end, s.end())) : end;
            int row = -1;
            for (int i = 0; i < rowFree.size(); i++) {
                if (rowFree.get(i) <= from) {
                    row = i;
                    break;
                }
            }
            if (row < 0) {
                if (rowFree.size() < MAX_ROWS) {
                    row = rowFree.size();
                    rowFree.add(0L);
                } else {
                    row = MAX_ROWS - 1;
                    crowded[0]++;
                }
            }
            rowFree.set(row, Math.max(rowFree.get(row), to));
            out.add(new Bar(s, row, from, to));
        }
        return out;
    }

    private static int rows(List<Bar> bars) {
        return bars.stream().mapToInt(Bar::row).max().orElse(-1) + 1;
    }
}
