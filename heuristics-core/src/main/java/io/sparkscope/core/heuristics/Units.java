package io.sparkscope.core.heuristics;

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
        return String.format(Locale.ROOT, value >= 100 ? "%.0f %s" : "%.1f %s", value, names[i]);
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

    /** A share 0..1 as "37 %" (one decimal below 10 %). */
    public static String percent(double share) {
        double p = share * 100;
        return String.format(Locale.ROOT, p < 10 ? "%.1f %%" : "%.0f %%", p);
    }

    /** A count with thousands separators: "12,416". */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A ratio as "4.2×". */
    public static String times(double ratio) {
        return String.format(Locale.ROOT, ratio < 10 ? "%.1f×" : "%.0f×", ratio);
    }

    /** Rounds for details: two decimals are plenty for ratios and keep the JSON readable. */
    public static double round2(double value) {
        return Math.round(value * 100.0) / 100.0;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    private static String twoDigits(long v) {
        return v < 10 ? "0" + v : Long.toString(v);
    }
}
