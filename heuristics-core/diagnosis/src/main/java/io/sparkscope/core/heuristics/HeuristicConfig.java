package io.sparkscope.core.heuristics;

import io.sparkscope.core.text.Units;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Thresholds of every heuristic: the defaults each heuristic declares ({@link Heuristic#thresholds()}), then
 * overrides from a deployment's file ({@code --heuristics-config}) or a map ({@code spark.sparkscope.heuristics.*}
 * with the prefix stripped by the caller). Immutable; every {@code with…} returns a new config.
 *
 * <p>A key's type follows from its default: {@code true}/{@code false} is a switch, a key whose name contains
 * "bytes" is a size (Spark's syntax: {@code 5g}, {@code 100m}, plain bytes), anything else is a non-negative number.
 * An unknown key or a value of the wrong type fails fast with an {@link IllegalArgumentException} naming both, so a
 * typo never silently leaves a default in place.
 */
public final class HeuristicConfig {
    private static volatile HeuristicConfig builtIn;

    private final Map<String, String> defaults;
    private final Map<String, String> values;
    private final Map<String, Object> parsed;

    private HeuristicConfig(Map<String, String> defaults, Map<String, String> values) {
        this.defaults = Collections.unmodifiableMap(new TreeMap<>(defaults));
        this.values = Collections.unmodifiableMap(new TreeMap<>(values));
        Map<String, Object> p = new TreeMap<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            p.put(e.getKey(), parse(e.getKey(), e.getValue(), "defaults"));
        }
        this.parsed = p;
    }

    /**
     * The defaults of the heuristics visible to this class's class loader (the built-in ones and any on the same
     * classpath), as {@link HeuristicEngine#defaultConfig()} gives them.
     */
    public static HeuristicConfig defaults() {
        HeuristicConfig c = builtIn;
        if (c == null) {
            c = HeuristicEngine.load().defaultConfig();
            builtIn = c;
        }
        return c;
    }

    /** A config holding only the given defaults (tests, or a deployment that ships its own defaults file). */
    public static HeuristicConfig ofDefaults(Map<String, String> defaults) {
        return new HeuristicConfig(defaults, defaults);
    }

    /**
     * Adds keys that a heuristic declares ({@link Heuristic#thresholds()}). A key that already exists keeps its
     * current value.
     */
    public HeuristicConfig withDefaults(Map<String, String> more) {
        return withDefaults(more, "the defaults of a heuristic");
    }

    /** {@link #withDefaults(Map)}; {@code source} names the heuristic in the error for a malformed default. */
    public HeuristicConfig withDefaults(Map<String, String> more, String source) {
        Map<String, String> d = new TreeMap<>(defaults);
        Map<String, String> v = new TreeMap<>(values);
        for (Map.Entry<String, String> e : more.entrySet()) {
            if (!d.containsKey(e.getKey())) {
                parse(e.getKey(), e.getValue(), source);
                d.put(e.getKey(), e.getValue());
                v.put(e.getKey(), e.getValue());
            }
        }
        checkLowBelowHigh(v, source);
        return new HeuristicConfig(d, v);
    }

    /** Overrides from a map; {@code source} says where they came from, for error messages. */
    public HeuristicConfig withOverrides(Map<String, String> overrides, String source) {
        Map<String, String> v = new TreeMap<>(values);
        for (Map.Entry<String, String> e : overrides.entrySet()) {
            String key = e.getKey().trim();
            if (!defaults.containsKey(key)) {
                throw new IllegalArgumentException("Unknown heuristics setting '" + key + "' (value '" + e.getValue()
                        + "', from " + source + ")" + knownKeysHint(key));
            }
            String value = e.getValue() == null ? "" : e.getValue().trim();
            parse(key, value, source);
            v.put(key, value);
        }
        checkLowBelowHigh(v, source);
        return new HeuristicConfig(defaults, v);
    }

    public HeuristicConfig withOverrides(Map<String, String> overrides) {
        return withOverrides(overrides, "overrides");
    }

    /** Overrides from a properties file (UTF-8). */
    public HeuristicConfig withOverrides(Path propertiesFile) throws IOException {
        Properties props = new Properties();
        try (Reader r = Files.newBufferedReader(propertiesFile, StandardCharsets.UTF_8)) {
            props.load(r);
        }
        return withOverrides(toMap(props), propertiesFile.toString());
    }

    /** A non-negative number threshold. */
    public double threshold(String key) {
        return typed(key, Double.class, "a number");
    }

    /**
     * The LOW and HIGH levels {@code <prefix>.low} and {@code <prefix>.high} (numbers or sizes), e.g.
     * {@code cfg.levels("StageSkew.ratio").grade(ratio)}.
     */
    public Levels levels(String prefix) {
        return new Levels(number(prefix + ".low"), number(prefix + ".high"));
    }

    private double number(String key) {
        Object v = parsed.get(key);
        if (v instanceof Long l) {
            return l;
        }
        return threshold(key);
    }

    /** A whole-number threshold (a count or milliseconds). */
    public long count(String key) {
        return (long) threshold(key);
    }

    /** A size threshold in bytes. */
    public long bytes(String key) {
        return typed(key, Long.class, "a byte size");
    }

    /** A switch. */
    public boolean flag(String key) {
        return typed(key, Boolean.class, "a switch");
    }

    /** {@code <heuristicId>.enabled}; a heuristic without that key is enabled. */
    public boolean enabled(String heuristicId) {
        Object v = parsed.get(heuristicId + ".enabled");
        return !(v instanceof Boolean b) || b;
    }

    /** Effective values, sorted by key (for reports and {@code --show-config}). */
    public Map<String, String> values() {
        return values;
    }

    public Map<String, String> defaultValues() {
        return defaults;
    }

    private <T> T typed(String key, Class<T> type, String what) {
        Object v = parsed.get(key);
        if (v == null) {
            throw new IllegalArgumentException("Unknown heuristics setting '" + key + "'" + knownKeysHint(key));
        }
        if (!type.isInstance(v)) {
            throw new IllegalArgumentException("Heuristics setting '" + key + "' is not " + what + " (value '"
                    + values.get(key) + "')");
        }
        return type.cast(v);
    }

    private Object parse(String key, String value, String source) {
        String def = defaults.containsKey(key) ? defaults.get(key) : value;
        String v = value == null ? "" : value.trim();
        if (isSwitch(def)) {
            if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
                return Boolean.parseBoolean(v.toLowerCase(Locale.ROOT));
            }
            throw bad(key, value, source, "expected true or false");
        }
        if (key.toLowerCase(Locale.ROOT).contains("bytes")) {
            try {
                return Units.parseBytes(v, 1);
            } catch (NumberFormatException | ArithmeticException e) {
                throw bad(key, value, source, "expected a size such as 100m, 5g or a number of bytes");
            }
        }
        try {
            double d = Double.parseDouble(v);
            if (Double.isNaN(d) || Double.isInfinite(d) || d < 0) {
                throw bad(key, value, source, "expected a non-negative number");
            }
            return d;
        } catch (NumberFormatException e) {
            throw bad(key, value, source, "expected a non-negative number");
        }
    }

    private static boolean isSwitch(String defaultValue) {
        return "true".equalsIgnoreCase(defaultValue) || "false".equalsIgnoreCase(defaultValue);
    }

    private static IllegalArgumentException bad(String key, String value, String source, String expected) {
        return new IllegalArgumentException("Bad value '" + value + "' for heuristics setting '" + key + "' (from "
                + source + "): " + expected);
    }

    // "X.low" must not exceed "X.high": otherwise HIGH would fire before LOW and the levels mean nothing.
    private void checkLowBelowHigh(Map<String, String> v, String source) {
        for (String key : v.keySet()) {
            if (!key.endsWith(".low")) {
                continue;
            }
            String highKey = key.substring(0, key.length() - 4) + ".high";
            if (!v.containsKey(highKey)) {
                continue;
            }
            Object low = parse(key, v.get(key), source);
            Object high = parse(highKey, v.get(highKey), source);
            if (low instanceof Number l && high instanceof Number h && l.doubleValue() > h.doubleValue()) {
                throw new IllegalArgumentException("Heuristics setting '" + key + "' = '" + v.get(key)
                        + "' is above '" + highKey + "' = '" + v.get(highKey) + "' (from " + source
                        + "): the LOW threshold must not exceed the HIGH one");
            }
        }
    }

    private String knownKeysHint(String key) {
        int dot = key.indexOf('.');
        String prefix = dot > 0 ? key.substring(0, dot + 1) : key;
        String sameHeuristic = defaults.keySet().stream().filter(k -> k.startsWith(prefix))
                .collect(Collectors.joining(", "));
        return sameHeuristic.isEmpty()
                ? "; keys start with a heuristic id, e.g. StageSkew.ratio.low (sparkscope heuristics lists them)"
                : "; known keys: " + sameHeuristic;
    }

    private static Map<String, String> toMap(Properties props) {
        Map<String, String> m = new TreeMap<>();
        for (String name : props.stringPropertyNames()) {
            m.put(name.trim(), props.getProperty(name).trim());
        }
        return m;
    }

    @Override
    public String toString() {
        return "HeuristicConfig" + values;
    }
}
