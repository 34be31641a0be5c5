package io.sparkscope.core.heuristics;

/**
 * How bad a finding is. Views show green for {@link #NONE} (no finding), yellow for {@link #LOW}, red for
 * {@link #HIGH}. Declared in ascending order so {@link #compareTo} ranks severities.
 */
public enum Severity {
    NONE, LOW, HIGH;

    public boolean atLeast(Severity other) {
        return compareTo(other) >= 0;
    }

    public static Severity max(Severity a, Severity b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** Grades a value where bigger is worse: HIGH at or above {@code high}, LOW at or above {@code low}. */
    public static Severity atOrAbove(double value, double low, double high) {
        if (value >= high) {
            return HIGH;
        }
        return value >= low ? LOW : NONE;
    }
}
