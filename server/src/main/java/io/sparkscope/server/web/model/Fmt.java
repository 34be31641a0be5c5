package io.sparkscope.server.web.model;

import io.sparkscope.core.text.Units;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Display formats: times in UTC (the server cannot know the reader's zone without JavaScript), sizes binary. */
public final class Fmt {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private Fmt() {
    }

    public static String time(long epochMs) {
        if (epochMs <= 0) {
            return "—";
        }
        // As TIME formats it, without the formatter (a search page formats 100 times, the formatter cost 3 % of the
        // page); years outside four digits keep the formatter's own form.
        java.time.LocalDateTime t = java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(epochMs, 1000L), 0,
                ZoneOffset.UTC);
        if (t.getYear() < 1000 || t.getYear() > 9999) {
            return TIME.format(Instant.ofEpochMilli(epochMs));
        }
        char[] c = "0000-00-00 00:00:00 UTC".toCharArray();
        digits(c, 0, 4, t.getYear());
        digits(c, 5, 2, t.getMonthValue());
        digits(c, 8, 2, t.getDayOfMonth());
        digits(c, 11, 2, t.getHour());
        digits(c, 14, 2, t.getMinute());
        digits(c, 17, 2, t.getSecond());
        return new String(c);
    }

    private static void digits(char[] c, int at, int width, int v) {
        for (int i = at + width - 1; i >= at; i--) {
            c[i] = (char) ('0' + v % 10);
            v /= 10;
        }
    }

    public static String duration(long ms) {
        return Units.duration(Math.max(0, ms));
    }

    public static String bytes(long b) {
        return Units.bytes(Math.max(0, b));
    }

    public static String count(long n) {
        // String.format(Locale.ROOT, "%,d", n) without the Formatter: groups of three digits separated by ','.
        if (n > -1000 && n < 1000) {
            return Long.toString(n);
        }
        String digits = Long.toString(n);
        int sign = n < 0 ? 1 : 0;
        int len = digits.length() - sign;
        StringBuilder out = new StringBuilder(digits.length() + len / 3);
        out.append(digits, 0, sign);
        for (int i = 0; i < len; i++) {
            if (i > 0 && (len - i) % 3 == 0) {
                out.append(',');
            }
            out.append(digits.charAt(sign + i));
        }
        return out.toString();
    }

    /** A count and its noun: "1 task", "2 tasks" ({@link Units#count(long, String)}). */
    public static String count(long n, String noun) {
        return count(n) + " " + (n == 1 ? noun : noun + "s");
    }

    /** A count with irregular plural: "1 executor lost", "3 executors lost". */
    public static String count(long n, String one, String many) {
        return count(n) + " " + (n == 1 ? one : many);
    }

    /** Core time: "0.4 core-hours" ({@link Units#coreHours}). */
    public static String coreHours(long coreMs) {
        return Units.coreHours(Math.max(0, coreMs));
    }

    public static String percent(double share) {
        return Double.isFinite(share) ? Units.fixed(share * 100, 1) + " %" : "—";
    }

    /**
     * A value's change against the baseline's as the compare pages show it: "+35 %", "-80 %", "new" when the baseline
     * had none (a share of 0 is no number), "" when they are equal.
     */
    public static String change(long baseline, long value) {
        if (value == baseline) {
            return "";
        }
        return baseline == 0 ? "new"
                : String.format(java.util.Locale.ROOT, "%+.0f %%", 100.0 * (value - baseline) / Math.abs(baseline));
    }

    /** The CSS class of a severity: its colour goes with its word ({@link #severityWord}) everywhere. */
    public static String severityClass(String worst) {
        return worst == null ? "sev-none" : "HIGH".equals(worst) ? "sev-high" : "sev-low";
    }

    /** Severity named one way on every page: HIGH, LOW, or OK for an application without a finding. */
    public static String severityWord(String worst) {
        return worst == null || worst.isEmpty() || "NONE".equals(worst) ? "OK" : worst;
    }
}
