package io.sparkscope.core.heuristics;

import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.SparkLine;

import java.util.Locale;
import java.util.OptionalDouble;
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
    private static final Pattern TIME = Pattern.compile("(\\d+)\\s*(us|ms|s|m|min|h|d)?");
    private static final Pattern LOCAL_RETRIES = Pattern.compile("local\\[\\s*(?:\\d+|\\*)\\s*,\\s*(\\d+)\\s*]");
    private static final Pattern LOCAL_CLUSTER = Pattern.compile("local-cluster\\[\\s*(\\d+)\\s*,\\s*(\\d+)\\s*,.*]");

    private final AppConfig conf;
    private final String sparkVersion;
    private final Platform platform;
    /** The cores every executor offered when they agree, as the executors reported them; empty when unknown. */
    private final OptionalInt reportedCores;

    public SparkSettings(AppConfig conf) {
        this(conf, null);
    }

    /** Settings of an application of this Spark version (null when unknown), for version-dependent defaults. */
    public SparkSettings(AppConfig conf, String sparkVersion) {
        this(conf, sparkVersion, Platform.of(conf), OptionalInt.empty());
    }

    private SparkSettings(AppConfig conf, String sparkVersion, Platform platform, OptionalInt reportedCores) {
        this.conf = conf;
        this.sparkVersion = sparkVersion;
        this.platform = platform;
        this.reportedCores = reportedCores;
    }

    /** An application's settings, with its platform and the cores its executors reported. */
    public static SparkSettings of(AppSnapshot app) {
        return new SparkSettings(app.config(), app.sparkVersion(), Platform.of(app), reportedCores(app));
    }

    /** Where and in what language the application ran: the platform whose defaults apply. */
    public Platform platform() {
        return platform;
    }

    // The cores every executor reported, when all agree: what is in force when spark.executor.cores is unset.
    private static OptionalInt reportedCores(AppSnapshot app) {
        int cores = -1;
        for (ExecutorSummary e : app.executors()) {
            if (e.isDriver()) {
                continue;
            }
            if (e.totalCores() <= 0 || cores > 0 && e.totalCores() != cores) {
                return OptionalInt.empty();
            }
            cores = e.totalCores();
        }
        return cores > 0 ? OptionalInt.of(cores) : OptionalInt.empty();
    }

    /** A setting's value in force and where it comes from. */
    public record Value(String value, SettingAdvice.ValueSource source) {
        public boolean known() {
            return source != SettingAdvice.ValueSource.UNKNOWN;
        }
    }

    /**
     * The value in force for {@code key}: as the application set it, else Spark's default at this version for the
     * keys the heuristics advise on, else unknown.
     */
    public Value current(String key) {
        String set = get(key, null);
        if (set != null) {
            return new Value(set, SettingAdvice.ValueSource.SET);
        }
        String platformDefault = platformDefault(key);
        if (platformDefault != null) {
            return new Value(platformDefault, SettingAdvice.ValueSource.DEFAULT);
        }
        String def = defaultOf(key);
        return def == null ? new Value("", SettingAdvice.ValueSource.UNKNOWN)
                : new Value(def, SettingAdvice.ValueSource.DEFAULT);
    }

    /** Advice to set {@code key} to {@code recommended}, with the value in force; see {@link SettingAdvice}. */
    public SettingAdvice advise(String key, String recommended, String reason) {
        Value now = current(key);
        return new SettingAdvice(key, now.value(), now.source(), recommended, reason);
    }

    /** True when {@code value} is what is in force for {@code key} (so it must not be recommended). */
    public boolean inForce(String key, String value) {
        Value now = current(key);
        return now.known() && SettingAdvice.sameValue(key, now.value(), value);
    }

    /**
     * A managed service's own default for an unset key, else null. EMR writes the executor size it chose for the
     * cluster's instance type under {@code spark.emr.default.*} ({@code spark.emr.default.executor.memory}), and its
     * Spark takes those when the application sets nothing: they, not Spark's 1g, are in force. (With EMR's
     * maximizeResourceAllocation the sizes are written as the {@code spark.executor.*} keys themselves, so they read
     * as set.)
     */
    private String platformDefault(String key) {
        if (!platform.emr() || !key.startsWith("spark.") || key.startsWith("spark.emr.")) {
            return null;
        }
        return get("spark.emr.default." + key.substring("spark.".length()), null);
    }

    // Spark's defaults for the keys heuristics advise on; null where the default depends on what the snapshot cannot
    // tell (the cluster manager's cores, an unknown version for a version-dependent default).
    private String defaultOf(String key) {
        return switch (key) {
            case "spark.executor.memory", "spark.driver.memory", "spark.driver.maxResultSize" -> "1g";
            case "spark.executor.memoryOverhead" -> isLocal() ? null : Units.sparkSize(executorOverheadBytes());
            case "spark.sql.shuffle.partitions" -> "200";
            case "spark.sql.files.maxPartitionBytes" -> "128m";
            case "spark.sql.autoBroadcastJoinThreshold" -> "10m";
            case "spark.sql.adaptive.autoBroadcastJoinThreshold" -> get("spark.sql.autoBroadcastJoinThreshold", "10m");
            case "spark.sql.adaptive.advisoryPartitionSizeInBytes" -> "64m";
            case "spark.sql.adaptive.enabled" -> aqeDefault() == null ? null : aqeDefault().toString();
            case "spark.sql.adaptive.skewJoin.enabled", "spark.sql.adaptive.coalescePartitions.enabled" -> "true";
            case "spark.dynamicAllocation.enabled", "spark.shuffle.service.enabled", "spark.decommission.enabled",
                    "spark.excludeOnFailure.enabled", "spark.speculation" -> "false";
            case "spark.dynamicAllocation.shuffleTracking.enabled" -> versionAtLeast(3, 4) == null ? null
                    : versionAtLeast(3, 4).toString();
            case "spark.dynamicAllocation.executorIdleTimeout" -> "60s";
            case "spark.serializer" -> "org.apache.spark.serializer.JavaSerializer";
            case "spark.scheduler.mode" -> "FIFO";
            case "spark.memory.fraction" -> "0.6";
            case "spark.locality.wait" -> "3s";
            case "spark.driver.cores" -> "1";
            case "spark.task.maxFailures" -> "4";
            case "spark.yarn.queue" -> isYarn() ? "default" : null;
            // unset, the executors' reported cores are what is in force; YARN and Kubernetes give one core
            case "spark.executor.cores" -> reportedCores.isPresent() ? Integer.toString(reportedCores.getAsInt())
                    : isYarn() || platform.kubernetes() ? "1" : null;
            case "spark.executor.memoryOverheadFactor" -> Double.toString(defaultOverheadFactor("spark.executor"));
            default -> null;
        };
    }

    /**
     * How many attempts a task gets before its stage fails, as words naming where the number comes from. In local
     * mode Spark ignores {@code spark.task.maxFailures}: the master URL decides ({@code local[N]} gives one attempt,
     * {@code local[N,F]} gives F), so advice must not point at a setting that has no effect there.
     */
    public String taskAttemptsPhrase() {
        if (isLocal()) {
            int attempts = taskAttempts();
            return (attempts == 1 ? "the single attempt " : "the " + attempts + " attempts ") + master()
                    + " allows per task (spark.task.maxFailures does not apply in local mode)";
        }
        return "spark.task.maxFailures (now " + current("spark.task.maxFailures").value() + ")";
    }

    /**
     * How many attempts a task gets before its stage fails: in local mode what the master URL allows ({@code local[N]}
     * one, {@code local[N,F]} F), elsewhere {@code spark.task.maxFailures} (4 when unset or unreadable).
     */
    public int taskAttempts() {
        if (isLocal()) {
            Matcher m = LOCAL_RETRIES.matcher(master());
            return m.matches() ? Integer.parseInt(m.group(1)) : 1;
        }
        try {
            return Math.max(1, Integer.parseInt(current("spark.task.maxFailures").value().trim()));
        } catch (RuntimeException e) {
            return 4;
        }
    }

    /** The Spark version as major and minor, or null when unknown or unparseable. */
    public int[] version() {
        return SparkLine.majorMinor(sparkVersion);
    }

    /** Whether the version is at least major.minor; null when the version is unknown. */
    public Boolean versionAtLeast(int major, int minor) {
        int[] v = version();
        if (v == null) {
            return null;
        }
        return v[0] > major || v[0] == major && v[1] >= minor;
    }

    // Adaptive query execution is on by default from Spark 3.2 (it exists from 3.0).
    private Boolean aqeDefault() {
        return versionAtLeast(3, 2);
    }

    /** Adaptive query execution is in force: set true, or unset on Spark 3.2+. Null when unset and the version unknown. */
    public Boolean aqe() {
        String set = get("spark.sql.adaptive.enabled", null);
        if (set != null) {
            return bool("spark.sql.adaptive.enabled", false);
        }
        return aqeDefault();
    }

    /** AQE is known to be on. */
    public boolean aqeOn() {
        return Boolean.TRUE.equals(aqe());
    }

    /** AQE's skew-join handling is in force (AQE on and its skew join not switched off). */
    public boolean aqeSkewJoinOn() {
        return aqeOn() && bool("spark.sql.adaptive.skewJoin.enabled", true);
    }

    /** AQE's coalescing of small shuffle partitions is in force. */
    public boolean aqeCoalesceOn() {
        return aqeOn() && bool("spark.sql.adaptive.coalescePartitions.enabled", true);
    }

    /** spark.sql.autoBroadcastJoinThreshold in bytes (Spark's default 10m); negative means broadcast joins are off. */
    public long broadcastThresholdBytes() {
        String v = get("spark.sql.autoBroadcastJoinThreshold", "10m");
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return size("spark.sql.autoBroadcastJoinThreshold", 1).orElse(10 * Units.MiB);
        }
    }

    public boolean broadcastDisabled() {
        return broadcastThresholdBytes() < 0;
    }

    /** An external shuffle service keeps shuffle files when executors go. */
    public boolean shuffleService() {
        return bool("spark.shuffle.service.enabled", false);
    }

    /**
     * Executors carry GPUs: a GPU resource per executor ({@code spark.executor.resource.gpu.amount}) or the RAPIDS
     * SQL plugin, which moves SQL work onto GPUs. CPU-core advice does not fit such executors as it is: their
     * concurrency is set by the GPU, not by cores.
     */
    public boolean gpuExecutors() {
        String amount = get("spark.executor.resource.gpu.amount", null);
        if (amount != null) {
            try {
                if (Double.parseDouble(amount) > 0) {
                    return true;
                }
            } catch (NumberFormatException ignored) {
                // not a number: fall through to the plugin check
            }
        }
        return rapidsPlugin();
    }

    /** The RAPIDS Accelerator is loaded ({@code spark.plugins} names {@code com.nvidia.spark.SQLPlugin}). */
    public boolean rapidsPlugin() {
        String plugins = get("spark.plugins", "");
        return plugins.contains("com.nvidia.spark.SQLPlugin") && bool("spark.rapids.sql.enabled", true);
    }

    /** Cluster mode (the driver runs on the cluster) as opposed to client mode; false when unknown or local. */
    public boolean clusterDeployMode() {
        return !isLocal() && "cluster".equalsIgnoreCase(get("spark.submit.deployMode", "client"));
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

    /**
     * A time setting in ms, the value in force (as set, else Spark's default) parsed like Spark's time strings
     * ({@code 100ms}, {@code 3s}, {@code 2min}, {@code 1h}); a bare number is in {@code defaultUnitMs}. Empty when
     * unknown or unparseable.
     */
    public OptionalLong timeMs(String key, long defaultUnitMs) {
        Value v = current(key);
        if (!v.known()) {
            return OptionalLong.empty();
        }
        Matcher m = TIME.matcher(v.value().trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return OptionalLong.empty();
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "" : m.group(2);
        long ms = switch (unit) {
            case "" -> n * defaultUnitMs;
            case "us" -> n / 1000;
            case "ms" -> n;
            case "s" -> n * 1000;
            case "m", "min" -> n * 60_000;
            case "h" -> n * 3_600_000;
            case "d" -> n * 86_400_000;
            default -> -1;
        };
        return ms < 0 ? OptionalLong.empty() : OptionalLong.of(ms);
    }

    /** {@code spark.executor.memory}, MiB by default, Spark's default 1g when unset. */
    public long executorMemoryBytes() {
        return memoryBytes("spark.executor.memory");
    }

    /** {@code spark.driver.memory}, MiB by default, Spark's default 1g when unset. */
    public long driverMemoryBytes() {
        return memoryBytes("spark.driver.memory");
    }

    // A heap setting in MiB by default: as set, else the platform's default (EMR's), else Spark's 1g.
    private long memoryBytes(String key) {
        OptionalLong set = size(key, Units.MiB);
        if (set.isPresent()) {
            return set.getAsLong();
        }
        String platformDefault = platformDefault(key);
        OptionalDouble bytes = platformDefault == null ? OptionalDouble.empty()
                : SettingAdvice.numeric(key, platformDefault);
        return bytes.isPresent() && bytes.getAsDouble() > 0 ? (long) bytes.getAsDouble() : Units.GiB;
    }

    /** The overhead Spark adds to each executor container: the configured one, else max(384 MiB, factor × memory). */
    public long executorOverheadBytes() {
        return overheadBytes("spark.executor", executorMemoryBytes());
    }

    /**
     * The memory overhead of a container of {@code prefix} ({@code spark.executor} or {@code spark.driver}) with this
     * heap: {@code <prefix>.memoryOverhead} when set, else max(minimum, factor × heap). The minimum is 384 MiB
     * ({@code <prefix>.minMemoryOverhead} from 4.0); the factor is {@code <prefix>.memoryOverheadFactor} (3.3+), else
     * on Kubernetes {@code spark.kubernetes.memoryOverheadFactor}, else the platform's default
     * ({@link Platform#defaultOverheadFactor()}: 0.4 for Python and R jobs on Kubernetes, 0.1 elsewhere).
     */
    public long overheadBytes(String prefix, long heapBytes) {
        OptionalLong set = size(prefix + ".memoryOverhead", Units.MiB);
        if (set.isPresent()) {
            return set.getAsLong();
        }
        long minimum = MIN_OVERHEAD_BYTES;
        Boolean minKey = versionAtLeast(4, 0);
        if (minKey == null || minKey) {
            minimum = size(prefix + ".minMemoryOverhead", Units.MiB).orElse(minimum);
        }
        return Math.max(minimum, (long) (overheadFactor(prefix) * heapBytes));
    }

    /** The overhead factor in force for {@code prefix}'s containers (see {@link #overheadBytes}). */
    public double overheadFactor(String prefix) {
        Boolean newKeys = versionAtLeast(3, 3);
        if (newKeys == null || newKeys || !platform.kubernetes()) {
            double set = factor(get(prefix + ".memoryOverheadFactor", null));
            if (set >= 0) {
                return set;
            }
        }
        return defaultOverheadFactor(prefix);
    }

    // The factor when <prefix>.memoryOverheadFactor is unset: Kubernetes' own key, else the platform's default.
    private double defaultOverheadFactor(String prefix) {
        if (platform.kubernetes()) {
            double k8s = factor(get("spark.kubernetes.memoryOverheadFactor", null));
            if (k8s >= 0) {
                return k8s;
            }
        }
        return platform.defaultOverheadFactor();
    }

    private static double factor(String v) {
        if (v == null) {
            return -1;
        }
        try {
            double f = Double.parseDouble(v.trim());
            return f >= 0 && f < 100 ? f : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
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
