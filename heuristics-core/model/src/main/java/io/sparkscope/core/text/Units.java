package io.sparkscope.core.text;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Byte sizes and durations: parsing Spark's size strings and writing numbers the way a person reads them in a
 * finding's message. Formatting lives here, not in the heuristics, so every message says "4.0 GiB" the same way.
 */
public final class Units {
    public static final long KiB = 1024L;
    public static final long MiB = 1024L * KiB;
    public static final long GiB = 1024L * MiB;
    public static final long TiB = 1024L * GiB;
    public static final long PiB = 1024L * TiB;

    private static final Pattern WHOLE = Pattern.compile("([0-9]+)([a-z]+)?");
    private static final Pattern FRACTION = Pattern.compile("([0-9]+\\.[0-9]+)([a-z]+)?");
    private static final Pattern HUMAN_SIZE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([a-z]+)?");
    private static final Map<String, Long> SUFFIXES = Map.ofEntries(
            Map.entry("b", 1L), Map.entry("k", KiB), Map.entry("kb", KiB), Map.entry("m", MiB), Map.entry("mb", MiB),
            Map.entry("g", GiB), Map.entry("gb", GiB), Map.entry("t", TiB), Map.entry("tb", TiB),
            Map.entry("p", PiB), Map.entry("pb", PiB));

    private Units() {
    }

    /**
     * Parses a size the way Spark's {@code JavaUtils.byteStringAsBytes} does: an integer with an optional binary
     * suffix (b, k/kb, m/mb, g/gb, t/tb, p/pb, any case); a bare number is in {@code defaultUnitBytes} (Spark reads
     * {@code spark.executor.memory} and {@code spark.driver.memory} in MiB). Fractions ("1.5g") are rejected, as Spark
     * rejects them.
     *
     * @throws NumberFormatException naming the input when it is not a size
     */
    public static long parseBytes(String text, long defaultUnitBytes) {
        if (text == null) {
            throw new NumberFormatException("Failed to parse byte string: null");
        }
        String lower = text.toLowerCase(Locale.ROOT).trim();
        Matcher m = WHOLE.matcher(lower);
        if (m.matches()) {
            long value;
            try {
                value = Long.parseLong(m.group(1));
            } catch (NumberFormatException e) {
                throw new NumberFormatException("Size out of range: " + text);
            }
            String suffix = m.group(2);
            long unit = defaultUnitBytes;
            if (suffix != null) {
                Long u = SUFFIXES.get(suffix);
                if (u == null) {
                    throw new NumberFormatException("Invalid suffix '" + suffix + "' in byte string: " + text);
                }
                unit = u;
            }
            return Math.multiplyExact(value, unit);
        }
        if (FRACTION.matcher(lower).matches()) {
            throw new NumberFormatException("Fractional values are not supported: " + text);
        }
        throw new NumberFormatException("Failed to parse byte string: " + text);
    }

    /** "512 B", "3.2 KiB", "1.5 GiB": binary units, as Spark's UI. */
    public static String bytes(long bytes) {
        if (bytes < 0) {
            return "-" + bytes(-bytes);
        }
        if (bytes < KiB) {
            return bytes + " B";
        }
        String[] names = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double value = bytes;
        int i = -1;
        while (value >= 1024 && i < names.length - 1) {
            value /= 1024;
            i++;
        }
        if (i < 4) {
            // Below a PiB the value is bytes / unit exactly (a power of two divides without rounding) and no closer
            // than 2^-44 to a rounding tie unless on it, so rounding the exact quotient half up in whole numbers
            // writes what the formatter writes, at a fraction of its cost (a task table formats 600 sizes a page).
            long unit = 1L << (10 * (i + 1));
            if (value >= 100) {
                return (2 * bytes + unit) / (2 * unit) + " " + names[i];
            }
            long tenths = (20 * bytes + unit) / (2 * unit);
            return tenths / 10 + "." + tenths % 10 + " " + names[i];
        }
        return fixed(value, value >= 100 ? 0 : 1) + " " + names[i];
    }

    /**
     * A size a person set or declared (a limit, a Content-Length): "64 MiB", "32 GiB" when it is a whole number of
     * them, so a limit reads as it was written; otherwise as {@link #bytes}.
     */
    public static String size(long bytes) {
        if (bytes >= GiB && bytes % GiB == 0) {
            return bytes / GiB + " GiB";
        }
        if (bytes >= MiB && bytes % MiB == 0) {
            return bytes / MiB + " MiB";
        }
        return bytes(bytes);
    }

    /**
     * The text of {@code String.format(Locale.ROOT, "%.<decimals>f", v)} without the Formatter, which pages call
     * hundreds of times per request: like the Formatter, it rounds the shortest decimal form of |v| half up and puts
     * a minus sign before a negative value (-0.0 and -0.04 give "-0.0" at one decimal).
     */
    public static String fixed(double v, int decimals) {
        if (!Double.isFinite(v)) {
            return String.format(Locale.ROOT, "%." + decimals + "f", v);
        }
        if (Double.compare(v, 0.0) < 0) {
            return "-" + fixed(-v, decimals);
        }
        return java.math.BigDecimal.valueOf(v).setScale(decimals, java.math.RoundingMode.HALF_UP).toPlainString();
    }

    /** A size as a Spark config value, rounded up to a whole unit: "6g", "384m", "100k". */
    public static String sparkSize(long bytes) {
        if (bytes >= GiB && bytes % GiB == 0) {
            return bytes / GiB + "g";
        }
        if (bytes >= 10 * GiB) {
            return ceilDiv(bytes, GiB) + "g";
        }
        if (bytes >= MiB) {
            return ceilDiv(bytes, MiB) + "m";
        }
        return ceilDiv(bytes, KiB) + "k";
    }

    /** "850 ms", "12.3 s", "4 min 05 s", "2 h 07 min". */
    public static String duration(long ms) {
        if (ms < 0) {
            return "-" + duration(-ms);
        }
        if (ms < 1000) {
            return ms + " ms";
        }
        // Same text as String.format("%.1f s" / "%d min %02d s" / "%d h %02d min"), without the Formatter (the search
        // page formats 50 durations per request).
        if (ms < 60_000) {
            long tenths = (ms + 50) / 100; // %.1f rounds half up
            return tenths / 10 + "." + tenths % 10 + " s";
        }
        long s = Math.round(ms / 1000.0);
        if (s < 3600) {
            return s / 60 + " min " + twoDigits(s % 60) + " s";
        }
        long min = Math.round(ms / 60_000.0);
        return min / 60 + " h " + twoDigits(min % 60) + " min";
    }

    /**
     * "0.42", "12.5", "1 234": hours (core-hours, GB-hours) with the precision a
     * person reads; "-" for a negative (unknown) value.
     */
    public static String hours(double h) {
        if (h < 0) {
            return "-";
        }
        if (h == 0) {
            return "0";
        }
        if (h < 0.01) {
            return "<0.01";
        }
        if (h < 10) {
            return fixed(h, 2);
        }
        if (h < 100) {
            return fixed(h, 1);
        }
        return String.format(Locale.ROOT, "%,.0f", h).replace(',', ' ');
    }

    /** A count and its noun, singular for exactly one: "1 task", "12,416 tasks". */
    public static String count(long n, String one, String many) {
        return count(n) + " " + (n == 1 ? one : many);
    }

    /** {@link #count(long, String, String)} for nouns whose plural adds an "s": "1 task", "2 tasks". */
    public static String count(long n, String noun) {
        return count(n, noun, noun + "s");
    }

    /**
     * Core time (task time, executor core time) as a person budgets it: "0.4 core-hours", "12 core-hours"; under
     * six core-minutes in core-minutes ("3.5 core-minutes"), under six core-seconds in core-seconds.
     */
    public static String coreHours(long coreMs) {
        if (coreMs < 0) {
            return "-" + coreHours(-coreMs);
        }
        double hours = coreMs / 3_600_000.0;
        if (hours >= 0.1) {
            return decimal(hours) + " core-hours";
        }
        double minutes = coreMs / 60_000.0;
        if (minutes >= 0.1) {
            return decimal(minutes) + " core-minutes";
        }
        return coreMs / 1000 + " core-seconds";
    }

    /**
     * A size as a person types it into a form or a query parameter: a number (fractions allowed) with an optional
     * unit, case-insensitive, spaces allowed: {@code 1GB}, {@code 512m}, {@code 10 GiB}, {@code 1.5t}, {@code 4096}
     * (bytes). Units are binary as in Spark's own sizes: k/kb/kib = 1024 bytes, m/mb/mib = 1024², g/gb/gib, t, p.
     *
     * @throws NumberFormatException with a message saying what is accepted, for anything else (negative numbers,
     *                               unknown units, more than {@code Long.MAX_VALUE} bytes)
     */
    public static long parseSize(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        Matcher m = HUMAN_SIZE.matcher(t);
        if (!m.matches()) {
            throw new NumberFormatException("'" + (text == null ? "" : text.trim())
                    + "' is not a size: give a number of bytes, or a number with a unit such as 512m, 1GB, 10 GiB");
        }
        String unit = m.group(2) == null ? "b" : m.group(2);
        if (unit.length() == 3 && unit.endsWith("ib")) {
            unit = unit.charAt(0) + "b"; // KiB, MiB, GiB: the binary units Spark's k, m, g already are
        }
        Long bytesPerUnit = SUFFIXES.get(unit);
        if (bytesPerUnit == null) {
            throw new NumberFormatException("'" + text.trim() + "' has an unknown unit '" + m.group(2)
                    + "': use b, k, m, g, t or p (KB/KiB, MB/MiB, … mean the same binary units)");
        }
        java.math.BigDecimal bytes = new java.math.BigDecimal(m.group(1))
                .multiply(java.math.BigDecimal.valueOf(bytesPerUnit));
        if (bytes.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new NumberFormatException("'" + text.trim() + "' is more bytes than can be counted");
        }
        return bytes.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
    }

    /** A share 0..1 as "37 %" (one decimal below 10 %). */
    public static String percent(double share) {
        double p = share * 100;
        return fixed(p, p < 10 ? 1 : 0) + " %";
    }

    /** A count with thousands separators: "12,416". */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A ratio as "4.2×". */
    public static String times(double ratio) {
        return fixed(ratio, ratio < 10 ? 1 : 0) + "×";
    }

    /** Rounds for details: two decimals are plenty for ratios and keep the JSON readable. */
    public static double round2(double value) {
        return Math.round(value * 100.0) / 100.0;
    }

    /** One decimal below 100 ("0.4", "12.5"), none from 100 on ("240"). */
    private static String decimal(double v) {
        return fixed(v, v < 100 ? 1 : 0);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    private static String twoDigits(long v) {
        return v < 10 ? "0" + v : Long.toString(v);
    }
}
