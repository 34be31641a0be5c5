package io.sparkscope.core.heuristics;

/**
 * A heuristic's two at-or-above levels, read once from its {@code <prefix>.low} and {@code <prefix>.high}
 * thresholds: {@code cfg.levels(ID + ".ratio").grade(x)}.
 *
 * @param low  LOW at or above this
 * @param high HIGH at or above this
 */
public record Levels(double low, double high) {

    /** HIGH at or above {@code high}, LOW at or above {@code low}, else NONE. */
    public Severity grade(double value) {
        return Severity.atOrAbove(value, low, high);
    }

    /**
     * The grade for an application (or stage) below a heuristic's size floor, where a ratio says less: the threshold
     * widens to {@code high} and the severity is at most LOW, so an extreme ratio is still reported without a short
     * run turning red.
     */
    public Severity gradeBelowFloor(double value) {
        return value >= high ? Severity.LOW : Severity.NONE;
    }

    /** {@link #grade} when {@code aboveFloor}, else {@link #gradeBelowFloor}. */
    public Severity grade(double value, boolean aboveFloor) {
        return aboveFloor ? grade(value) : gradeBelowFloor(value);
    }
}
