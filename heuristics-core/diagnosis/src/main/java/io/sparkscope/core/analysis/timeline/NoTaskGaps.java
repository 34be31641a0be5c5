package io.sparkscope.core.analysis.timeline;

import io.sparkscope.core.model.StageSummary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The stretches of an application in which no task ran anywhere: its span minus the union of the stages' task spans
 * [first task launch, last task finish], found by one sweep over the spans in time order, O(stages · log stages).
 * The one place that decides what "no task ran" means: the heuristics' split of that time by what the driver did
 * ({@code NoTaskTime}) and the efficiency figures' driver-alone time ({@code DriverAloneTime}) both read these gaps,
 * so the two can never disagree about when the cluster ran nothing.
 *
 * <p>A stage that launched no task covers nothing. One still running covers up to the end. Spans are clamped to the
 * application's span, and one empty after that (a finish before its launch, a launch after the end: clocks or a
 * damaged log) covers nothing either.
 *
 * <p>A long-running application's snapshot lists only its recent stages, the older ones summed up in the run's
 * totals ({@link io.sparkscope.core.model.TaskSpanSummary}); each caller accounts for that block its own way and
 * starts this sweep where the block ends.
 */
public final class NoTaskGaps {
    private NoTaskGaps() {
    }

    /** A stretch [from, to) with no task running, between the stages {@code after} and {@code before} (null: none). */
    public record Gap(long from, long to, String after, String before) {
        public long durationMs() {
            return to - from;
        }
    }

    /**
     * The gaps in [{@code from}, {@code end}), in time order.
     *
     * @param stages   the stages listed
     * @param start    the application's start: no span reaches before it
     * @param end      the application's end: a stage still running covers up to it
     * @param from     where the sweep starts: {@code start}, or where the stages no longer listed end
     * @param previous the key of the stage whose span ends at {@code from}, or null
     */
    public static List<Gap> of(List<StageSummary> stages, long start, long end, long from, String previous) {
        record Span(long from, long to, String stage) {
        }
        List<Span> spans = new ArrayList<>();
        for (StageSummary s : stages) {
            if (s.firstTaskLaunchedTime() <= 0) {
                continue;
            }
            long stop = s.lastTaskFinishedTime() > 0 ? s.lastTaskFinishedTime() : end;
            long a = Math.max(start, s.firstTaskLaunchedTime());
            long b = Math.min(end, stop);
            if (b > a) {
                spans.add(new Span(a, b, s.key()));
            }
        }
        spans.sort(Comparator.comparingLong(Span::from));
        List<Gap> gaps = new ArrayList<>();
        long cursor = from;
        String before = previous;
        for (Span sp : spans) {
            if (sp.to() <= cursor) {
                continue;
            }
            if (sp.from() > cursor) {
                gaps.add(new Gap(cursor, sp.from(), before, sp.stage()));
            }
            cursor = sp.to();
            before = sp.stage();
        }
        if (end > cursor) {
            gaps.add(new Gap(cursor, end, before, null));
        }
        return gaps;
    }
}
