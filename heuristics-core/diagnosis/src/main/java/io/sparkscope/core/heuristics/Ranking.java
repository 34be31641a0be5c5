package io.sparkscope.core.heuristics;

import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;

/** The order findings are shown in: larger estimated saving first, then HIGH before LOW. */
final class Ranking {
    static final Comparator<Finding> BY_IMPACT = (a, b) -> {
        int c = b.impact().compareTo(a.impact());
        return c != 0 ? c : b.severity().compareTo(a.severity());
    };

    /**
     * A saving of wall time under this share of the application's is not worth putting ahead of idle cores: runs of
     * one job vary by more than that from one day to the next, so nobody would see the run get shorter.
     */
    static final double MINOR_WALL_SHARE = 0.01;

    /**
     * The "fix this first" order: findings that would shorten the run by at least {@link #MINOR_WALL_SHARE} of its
     * time (or are HIGH and shorten it at all) first, largest saving first; then those whose saving is core time: idle
     * cores freed (the run takes as long, other applications get the cores) and the LOW findings' smaller savings,
     * whose task time saved is core time too, most core time first; then those whose saving cannot be estimated
     * (only HIGH ones get there), so a guess never outranks a measured saving.
     *
     * @param appMs the application's wall time (0 when unknown: every saving of wall time then counts as one)
     */
    static Comparator<Finding> fixFirst(long appMs) {
        return Comparator.comparingInt((Finding f) -> tier(f, appMs))
                .thenComparing((a, b) -> tier(a, appMs) == 1 ? Long.compare(coreTime(b), coreTime(a)) : 0)
                .thenComparing(BY_IMPACT);
    }

    /**
     * 0: shortens the run noticeably, or HIGH; 1: its saving is core time (idle cores, or a LOW finding's saving too
     * small to notice); 2: none. A HIGH finding keeps its place whatever its measured saving: its heuristic judged it
     * serious for more than the time it cost (a task that nearly failed the job, say).
     */
    private static int tier(Finding f, long appMs) {
        Impact i = f.impact();
        if (i.saves()) {
            return appMs > 0 && i.wallMs() < MINOR_WALL_SHARE * appMs && f.severity() != Severity.HIGH ? 1 : 0;
        }
        return i.freesCoresOnly() ? 1 : 2;
    }

    /** The executor core time a fix gives back: idle core time freed, or task time no longer run. */
    private static long coreTime(Finding f) {
        Impact i = f.impact();
        return Math.max(i.coreMs(), Math.max(i.taskMs(), i.wallMs()));
    }

    private Ranking() {
    }

    /**
     * Whether one remedy fixes both findings, so they should share one "fix this first" item: the same setting
     * advised (to the same value), the same recommendation in the same words, or the same stages.
     */
    static boolean sameRemedy(Finding a, Finding b) {
        for (SettingAdvice x : a.advice()) {
            SettingAdvice y = b.adviceFor(x.key());
            if (y != null && y.recommendedValue().equals(x.recommendedValue())) {
                return true;
            }
        }
        if (!a.recommendation().isBlank() && a.recommendation().equals(b.recommendation())) {
            return true;
        }
        if (a.stageIds().isEmpty() || b.stageIds().isEmpty()) {
            return false;
        }
        Set<String> stages = new HashSet<>(a.stageIds());
        return new HashSet<>(b.stageIds()).equals(stages);
    }
}
