package io.sparkscope.core.heuristics;

import java.util.Objects;

/**
 * What fixing a finding would save, estimated from the application's own numbers, so findings can be ranked by what
 * they cost rather than by how many there are.
 *
 * @param wallMs wall-clock time of the application a fix would save (0 when nothing or not estimated)
 * @param taskMs task time (executor core time spent running tasks) a fix would save
 * @param coreMs executor core time a fix would free without shortening the run or its tasks: cores held but idle,
 *               which other applications of a shared cluster could use (e.g. executors kept while nothing runs)
 * @param basis  how the estimate was made, in a few words naming the numbers used, e.g. "slowest task − median task";
 *               empty when not estimated
 */
public record Impact(long wallMs, long taskMs, long coreMs, String basis) {
    /** Not estimated: configuration risks and findings whose cost the snapshot cannot tell. */
    public static final Impact NONE = new Impact(0, 0, 0, "");

    public Impact {
        wallMs = Math.max(0, wallMs);
        taskMs = Math.max(0, taskMs);
        coreMs = Math.max(0, coreMs);
        basis = Objects.requireNonNullElse(basis, "");
    }

    /** A saving of wall and task time only. */
    public Impact(long wallMs, long taskMs, String basis) {
        this(wallMs, taskMs, 0, basis);
    }

    public static Impact of(long wallMs, long taskMs, String basis) {
        return new Impact(wallMs, taskMs, basis);
    }

    /** A fix that frees {@code coreMs} of idle executor core time and leaves the run as long as it was. */
    public static Impact coreTime(long coreMs, String basis) {
        return new Impact(0, 0, coreMs, basis);
    }

    /** True when a fix is estimated to save wall or task time (the run or its tasks get shorter). */
    public boolean saves() {
        return wallMs > 0 || taskMs > 0;
    }

    /** True when the only estimated saving is idle core time freed: the run takes as long, others get the cores. */
    public boolean freesCoresOnly() {
        return !saves() && coreMs > 0;
    }

    /** Larger wall time first, then larger task time, then larger freed core time: the order findings are ranked in. */
    public int compareTo(Impact other) {
        int c = Long.compare(wallMs, other.wallMs);
        if (c == 0) {
            c = Long.compare(taskMs, other.taskMs);
        }
        return c != 0 ? c : Long.compare(coreMs, other.coreMs);
    }

    public Impact max(Impact other) {
        return other != null && other.compareTo(this) > 0 ? other : this;
    }
}
