package io.sparkscope.core.heuristics;

import java.util.Objects;

/**
 * One threshold a heuristic reads, declared next to the code that reads it so a new heuristic needs no edit
 * elsewhere: its name without the heuristic's prefix ({@code ratio.low} of {@code StageSkew} is the key
 * {@code StageSkew.ratio.low}), its default and one line saying what it does. The default's form sets the key's type
 * as {@link HeuristicConfig} explains (a switch, a size when the name contains "bytes", else a number); deployments
 * override it by its full key.
 *
 * @param name         the key after {@code <heuristicId>.}, e.g. {@code ratio.low}
 * @param defaultValue the default in the properties syntax, e.g. {@code 0.05}, {@code 5g}, {@code true}
 * @param description  what the threshold does, one line for {@code sparkscope heuristics}
 */
public record Threshold(String name, String defaultValue, String description) {
    public Threshold {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(defaultValue, "defaultValue");
        if (name.isBlank() || name.startsWith(".") || name.endsWith(".")) {
            throw new IllegalArgumentException("Bad threshold name '" + name + "': a key such as ratio.low");
        }
        description = description == null ? "" : description.strip();
    }

    /** The threshold as a deployment names it: {@code <heuristicId>.<name>}. */
    public String key(String heuristicId) {
        return heuristicId + "." + name;
    }
}
