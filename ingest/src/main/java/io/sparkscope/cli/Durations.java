package io.sparkscope.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The one way a duration option is written ({@code watch --interval}, {@code serve --webhook-poll-interval}, …). */
public final class Durations {
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*(ms|s|m|h|d)?");

    private Durations() {
    }

    /** {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, {@code 7d}; a bare number is seconds. */
    public static Duration parse(String option, String value) {
        Matcher m = DURATION.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new UsageError(option + ": '" + value + "' is not a duration (e.g. 500ms, 10s, 2m, 1h, 7d)");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }
}
