package io.sparkscope.server.web;

import io.sparkscope.core.heuristics.Units;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Display formats: times in UTC (the server cannot know the reader's zone without JavaScript), sizes binary. */
public final class Fmt {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private Fmt() {
    }

    public static String time(long epochMs) {
        return epochMs <= 0 ? "—" : TIME.format(Instant.ofEpochMilli(epochMs));
    }

    public static String duration(long ms) {
        return Units.duration(Math.max(0, ms));
    }

    public static String bytes(long b) {
        return Units.bytes(Math.max(0, b));
    }

    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    public static String percent(double share) {
        return Double.isFinite(share) ? String.format(Locale.ROOT, "%.1f %%", share * 100) : "—";
    }

    public static String severityClass(String worst) {
        return worst == null ? "sev-none" : "HIGH".equals(worst) ? "sev-high" : "sev-low";
    }

    public static String severityWord(String worst) {
        return worst == null ? "green" : "HIGH".equals(worst) ? "red" : "yellow";
    }
}
