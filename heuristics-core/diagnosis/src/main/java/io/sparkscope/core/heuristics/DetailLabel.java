package io.sparkscope.core.heuristics;

import java.util.Objects;

/**
 * How a person reads one key of a finding's {@code details}: a label and the unit that decides how its value is
 * formatted. A heuristic declares these for the keys whose meaning is its own ({@code ratio} is "slowest task ÷ median
 * task" for StageSkew, "busiest executor ÷ median executor" for ExecutorLoadImbalance), so the web pages label them
 * without a list kept elsewhere. Keys not declared are labelled from a shared vocabulary, else from their name.
 *
 * @param text the label as shown, e.g. "Slowest task ÷ median task"
 * @param unit how the value reads
 */
public record DetailLabel(String text, Unit unit) {
    /** How a value reads: a duration in ms or ns, a size, a 0..1 share shown as %, a multiple, a count, …. */
    public enum Unit { DURATION_MS, DURATION_NS, BYTES, SHARE, TIMES, COUNT, CORE_HOURS, CORE_MS, STAGE, APP, TEXT }

    public DetailLabel {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(unit, "unit");
    }
}
