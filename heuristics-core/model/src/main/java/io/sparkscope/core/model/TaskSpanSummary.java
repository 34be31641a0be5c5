package io.sparkscope.core.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The union of the task spans ([first task launch, last task finish]) of stages a snapshot no longer lists, folded in
 * the order the stages left the recorder's window: how long some task ran, where the union ends, and its longest
 * gaps. A heuristic sweeping the listed stages' spans to find when no task ran continues from {@link #to()} with
 * {@link #busyMs()} and {@link #longestGaps()} instead of starting at the application's start.
 *
 * <p>Exact when stages leave in the order their spans start (completion order, for an application that runs its jobs
 * one after another); a stage that leaves later than one that started after it only adds the part of its span past
 * {@link #to()}, as the sweep over a sorted list would, but a gap it would have filled stays counted as a gap.
 *
 * @param from        where the union starts: the application's start, or the first span when the start is unknown
 * @param to          where it ends (the latest task finish folded in)
 * @param busyMs      time covered by some span
 * @param lastStage   the key of the stage whose span ends the union
 * @param longestGaps the {@link #KEPT_GAPS} longest gaps, longest first
 */
public record TaskSpanSummary(long from, long to, long busyMs, String lastStage, List<Gap> longestGaps) {
    public static final int KEPT_GAPS = 3;

    public TaskSpanSummary {
        longestGaps = List.copyOf(longestGaps);
    }

    /** A stretch when no task of a folded stage ran, between the stages {@code after} and {@code before} (null: the start). */
    public record Gap(long from, long to, String after, String before) {
        public long durationMs() {
            return to - from;
        }
    }

    /** Folds spans in order; mutable, not thread-safe. */
    public static final class Builder {
        private long from = -1;
        private long cursor = -1;
        private long busy;
        private String previous;
        private final List<Gap> gaps = new ArrayList<>(KEPT_GAPS + 1);

        public Builder() {
        }

        /** Goes on folding after what {@code earlier} holds (null: from nothing). */
        public Builder(TaskSpanSummary earlier) {
            if (earlier != null) {
                from = earlier.from();
                cursor = earlier.to();
                busy = earlier.busyMs();
                previous = earlier.lastStage();
                gaps.addAll(earlier.longestGaps());
            }
        }

        /** @param appStart the application's start (epoch ms), or ≤ 0 when unknown */
        public void fold(long appStart, long spanFrom, long spanTo, String stageKey) {
            if (spanFrom <= 0 || spanTo < spanFrom) {
                return;
            }
            if (cursor < 0) {
                from = appStart > 0 ? Math.min(appStart, spanFrom) : spanFrom;
                cursor = from;
            }
            if (spanTo <= cursor) {
                return;
            }
            long start = Math.max(cursor, spanFrom);
            if (start > cursor) {
                gap(new Gap(cursor, start, previous, stageKey));
            }
            busy += spanTo - start;
            cursor = spanTo;
            previous = stageKey;
        }

        private void gap(Gap g) {
            gaps.add(g);
            gaps.sort(Comparator.comparingLong(Gap::durationMs).reversed());
            if (gaps.size() > KEPT_GAPS) {
                gaps.remove(gaps.size() - 1);
            }
        }

        /** Null while nothing was folded. */
        public TaskSpanSummary build() {
            return cursor < 0 ? null : new TaskSpanSummary(from, cursor, busy, previous, gaps);
        }
    }
}
