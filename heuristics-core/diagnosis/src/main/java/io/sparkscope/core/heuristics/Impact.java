package io.sparkscope.core.heuristics;

import java.util.Objects;

/**
 * What fixing a finding would save, estimated from the application's own numbers, so findings can be ranked by what
 * they cost rather than by how many there are.
 *
 * @param wallMs wall-clock time of the application a fix would save (0 when nothing or not estimated)
 * @param taskMs task time (executor core time spent running tasks) a fix would save
 * @param basis  how the estimate was made, in a few words naming the numbers used, e.g. "slowest task − median task";
 *               empty when not estimated
 */
public record Impact(long wallMs, long taskMs, String basis) {
    /** Not estimated: configuration risks and findings whose cost the snapshot cannot tell. */
    public static final Impact NONE = new Impact(0, 0, "");

    public Impact {
        wallMs = Math.max(0, wallMs);
        taskMs = Math.max(0, taskMs);
        basis = Objects.requireNonNullElse(basis, "");
    }

    public static Impact of(long wallMs, long taskMs, String basis) {
        return new Impact(wallMs, taskMs, basis);
    }

    /** True when a fix is estimated to save some time. */
    public boolean saves() {
        return wallMs > 0 || taskMs > 0;
    }

    /** Larger wall time first, then larger task time: the order findings are ranked in. */
    public int compareTo(Impact other) {
        int c = Long.compare(wallMs, other.wallMs);
        return c != 0 ? c : Long.compare(taskMs, other.taskMs);
    }

    public Impact max(Impact other) {
        return other != null && other.compareTo(this) > 0 ? other : this;
    }
}
