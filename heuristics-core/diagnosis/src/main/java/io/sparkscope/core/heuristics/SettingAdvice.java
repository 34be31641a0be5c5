package io.sparkscope.core.heuristics;

import io.sparkscope.core.text.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One Spark setting a finding asks to change, as data: which key, what is in force now (and whether the application
 * set it or runs on Spark's default), the value to try and why. The finding's recommendation text names the same
 * value (through {@link #phrase()}), and the engine makes sure no finding recommends the value already in force and
 * no two findings of one application recommend different values for one key.
 *
 * @param key              the Spark configuration key, e.g. {@code spark.executor.memory}
 * @param currentValue     the value in force: as set, else Spark's effective default for the application's version;
 *                         empty when neither is known
 * @param currentSource    whether {@code currentValue} was set by the application, is Spark's default, or unknown
 * @param recommendedValue the value to try, in Spark's syntax ({@code 12g}, {@code 400}, {@code true})
 * @param reasons          why: this finding's reason first, then those of other findings that touch the same key
 *                         (added when the engine reconciles them)
 */
public record SettingAdvice(String key, String currentValue, ValueSource currentSource, String recommendedValue,
                            List<String> reasons) {

    /** Where the current value comes from. */
    public enum ValueSource {
        /** The application set it. */
        SET,
        /** Unset: Spark's default for this version (or what executors reported) is in force. */
        DEFAULT,
        /** Unset and the default cannot be told (e.g. unknown Spark version or cluster manager). */
        UNKNOWN,
        /**
         * Not what the settings say but what the application measured in force, e.g. the heap a JVM that spark-submit
         * did not start was given.
         */
        MEASURED
    }

    public SettingAdvice {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(recommendedValue, "recommendedValue");
        currentValue = Objects.requireNonNullElse(currentValue, "");
        currentSource = Objects.requireNonNullElse(currentSource, ValueSource.UNKNOWN);
        reasons = reasons == null ? List.of() : List.copyOf(reasons);
    }

    public SettingAdvice(String key, String currentValue, ValueSource currentSource, String recommendedValue,
                         String reason) {
        this(key, currentValue, currentSource, recommendedValue, reason == null ? List.of() : List.of(reason));
    }

    /** This finding's own reason ("" when none was given). */
    public String reason() {
        return reasons.isEmpty() ? "" : reasons.get(0);
    }

    /**
     * The advice as the recommendation text names it: {@code key=value (now current)}. The engine rewrites this exact
     * phrase when it reconciles a value, so heuristics should put it in their text rather than spelling the value out.
     */
    public String phrase() {
        return key + "=" + recommendedValue + " (now " + currentText() + ")";
    }

    /** The current value as a person reads it: "8g", "200, the default", "unknown". */
    public String currentText() {
        return switch (currentSource) {
            case SET -> currentValue;
            case DEFAULT -> currentValue.isEmpty() ? "the default" : currentValue + ", the default";
            case UNKNOWN -> currentValue.isEmpty() ? "unknown" : currentValue + "?";
            case MEASURED -> currentValue + ", measured";
        };
    }

    /** True when the recommended value is the one already in force. */
    public boolean recommendsCurrent() {
        return currentSource != ValueSource.UNKNOWN && sameValue(key, currentValue, recommendedValue);
    }

    public SettingAdvice withRecommended(String value) {
        return new SettingAdvice(key, currentValue, currentSource, value, reasons);
    }

    public SettingAdvice withReasons(List<String> more) {
        List<String> all = new ArrayList<>(reasons);
        for (String r : more) {
            if (r != null && !r.isBlank() && !all.contains(r)) {
                all.add(r);
            }
        }
        return new SettingAdvice(key, currentValue, currentSource, recommendedValue, all);
    }

    /**
     * Whether two values of {@code key} mean the same to Spark: sizes compare in bytes ({@code 10m} = {@code 10485760}
     * for the broadcast threshold), numbers numerically, switches and names case-insensitively.
     */
    public static boolean sameValue(String key, String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        String x = a.trim();
        String y = b.trim();
        if (x.equalsIgnoreCase(y)) {
            return true;
        }
        OptionalDouble nx = numeric(key, x);
        OptionalDouble ny = numeric(key, y);
        return nx.isPresent() && ny.isPresent() && nx.getAsDouble() == ny.getAsDouble();
    }

    /**
     * The value as a number for comparing directions: bytes for size keys (memory keys read a bare number as MiB, as
     * Spark does), the number itself otherwise; empty when the value is not numeric (names, switches).
     */
    public static OptionalDouble numeric(String key, String value) {
        if (value == null || value.isBlank()) {
            return OptionalDouble.empty();
        }
        String v = value.trim().toLowerCase(Locale.ROOT);
        try {
            double plain = Double.parseDouble(v);
            return OptionalDouble.of(isSize(key) && plain >= 0 ? plain * sizeUnit(key) : plain);
        } catch (NumberFormatException ignored) {
            // not a plain number: maybe a size or a duration
        }
        try {
            return OptionalDouble.of(Units.parseBytes(v, sizeUnit(key)));
        } catch (NumberFormatException | ArithmeticException ignored) {
            // not a size
        }
        return OptionalDouble.empty();
    }

    /** Keys whose values are sizes (a bare number is then in {@link #sizeUnit}). */
    static boolean isSize(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return sizeUnit(key) != 1 || k.contains("bytes") || k.endsWith("threshold") || k.endsWith("size");
    }

    /** Spark reads a bare number of executor/driver memory or overhead in MiB, of other sizes in bytes. */
    static long sizeUnit(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.endsWith(".memory") || k.endsWith("memoryoverhead") || k.endsWith("maxresultsize") ? Units.MiB : 1;
    }
}
