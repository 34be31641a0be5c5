package io.sparkscope.core.heuristics;

import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;

import java.util.Locale;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Typed reads of an application's Spark properties with Spark's own defaults and parsing rules, shared by the
 * configuration heuristics (and handy for custom ones).
 */
public final class SparkSettings {
    /** Spark's floor for {@code spark.executor.memoryOverhead}. */
    public static final long MIN_OVERHEAD_BYTES = 384 * Units.MiB;
    private static final Pattern LOCAL_N = Pattern.compile("local\\[(\\d+|\\*)(?:\\s*,\\s*\\d+)?]");
    private static final Pattern LOCAL_CLUSTER = Pattern.compile("local-cluster\\[\\s*(\\d+)\\s*,\\s*(\\d+)\\s*,.*]");

    private final AppConfig conf;

    public SparkSettings(AppConfig conf) {
        this.conf = conf;
    }

    public static SparkSettings of(AppSnapshot app) {
        return new SparkSettings(app.config());
    }

    public String master() {
        return conf.getOrDefault("spark.master", "").trim();
    }

    /** {@code local}, {@code local[N]}, {@code local[*]}: one JVM; executor settings do not apply. */
    public boolean isLocal() {
        String m = master();
        return m.equals("local") || m.startsWith("local[");
    }

    public boolean isYarn() {
        return master().startsWith("yarn");
    }

    /** Cores of a local master: 1 for {@code local}, N for {@code local[N]}; empty for {@code local[*]} or others. */
    public OptionalInt localCores() {
        String m = master();
        if (m.equals("local")) {
            return OptionalInt.of(1);
        }
        Matcher matcher = LOCAL_N.matcher(m);
        if (matcher.matches() && !matcher.group(1).equals("*")) {
            return OptionalInt.of(Integer.parseInt(matcher.group(1)));
        }
        Matcher cluster = LOCAL_CLUSTER.matcher(m);
        if (cluster.matches()) {
            return OptionalInt.of(Integer.parseInt(cluster.group(2)));
        }
        return OptionalInt.empty();
    }

    public boolean isSet(String key) {
        return conf.get(key).filter(v -> !v.isBlank()).isPresent();
    }

    public String get(String key, String fallback) {
        return conf.get(key).map(String::trim).filter(v -> !v.isEmpty()).orElse(fallback);
    }

    /** Spark's boolean parsing (trimmed, case-insensitive); unparseable counts as the fallback. */
    public boolean bool(String key, boolean fallback) {
        String v = get(key, null);
        if (v == null) {
            return fallback;
        }
        v = v.toLowerCase(Locale.ROOT);
        return v.equals("true") || (!v.equals("false") && fallback);
    }

    public OptionalInt integer(String key) {
        String v = get(key, null);
        if (v == null) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(v));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** A size property; a bare number is in {@code defaultUnitBytes}. Empty when unset or unparseable. */
    public OptionalLong size(String key, long defaultUnitBytes) {
        String v = get(key, null);
        if (v == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Units.parseBytes(v, defaultUnitBytes));
        } catch (NumberFormatException | ArithmeticException e) {
            return OptionalLong.empty();
        }
    }

    /** {@code spark.executor.memory}, MiB by default, Spark's default 1g when unset. */
    public long executorMemoryBytes() {
        return size("spark.executor.memory", Units.MiB).orElse(Units.GiB);
    }

    /** {@code spark.driver.memory}, MiB by default, Spark's default 1g when unset. */
    public long driverMemoryBytes() {
        return size("spark.driver.memory", Units.MiB).orElse(Units.GiB);
    }

    /** The overhead Spark adds to each executor container: the configured one, else max(384 MiB, factor × memory). */
    public long executorOverheadBytes() {
        OptionalLong configured = size("spark.executor.memoryOverhead", Units.MiB);
        if (configured.isPresent()) {
            return configured.getAsLong();
        }
        double factor = 0.10;
        try {
            factor = Double.parseDouble(get("spark.executor.memoryOverheadFactor", "0.10"));
        } catch (NumberFormatException ignored) {
            // keep Spark's default
        }
        return Math.max(MIN_OVERHEAD_BYTES, (long) (factor * executorMemoryBytes()));
    }

    /**
     * Cores per executor: what the executors actually offered (most common value, driver excluded) when known,
     * else {@code spark.executor.cores}; empty when neither tells.
     */
    public OptionalInt executorCores(AppSnapshot app) {
        java.util.Map<Integer, Integer> counts = new java.util.HashMap<>();
        for (ExecutorSummary e : app.executors()) {
            if (!e.isDriver() && e.totalCores() > 0) {
                counts.merge(e.totalCores(), 1, Integer::sum);
            }
        }
        if (!counts.isEmpty()) {
            int best = -1;
            int bestCount = -1;
            for (java.util.Map.Entry<Integer, Integer> c : counts.entrySet()) {
                if (c.getValue() > bestCount || c.getValue() == bestCount && c.getKey() > best) {
                    best = c.getKey();
                    bestCount = c.getValue();
                }
            }
            return OptionalInt.of(best);
        }
        return integer("spark.executor.cores");
    }

    /** Dynamic allocation is in effect: enabled and not in local mode (where Spark ignores it). */
    public boolean dynamicAllocation() {
        return !isLocal() && bool("spark.dynamicAllocation.enabled", false);
    }
}
