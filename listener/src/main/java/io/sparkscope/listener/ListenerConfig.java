package io.sparkscope.listener;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.recorder.StreamingLimits;
import io.sparkscope.store.Spool;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The listener's settings, read from {@code spark.sparkscope.*}. An invalid value never stops the application: it
 * gives one warning naming the key, the bad value and the value used instead.
 *
 * @param tasksPerStage    {@code tasks.perStage}: tasks kept in detail per stage attempt, all up to this cap, past it
 *                         the slowest half and a uniform sample (failed tasks besides)
 * @param tasksRetained    {@code tasks.retained}: the application's task-detail budget; past it the oldest completed
 *                         stages keep only their 100 slowest tasks
 * @param heuristics       {@code spark.sparkscope.heuristics.*} with the prefix removed, for the heuristics' thresholds
 * @param regressionFactor {@code regression.factor}: LOW Regression at this multiple of the previous runs' median
 *                         (HIGH at 2×, or at the factor when above 2)
 * @param webhookUrl       {@code webhook.url}: POST a JSON notification here when the application ends with a HIGH
 *                         finding or a Regression; null for none
 * @param retainedJobs     {@code retained.jobs}: completed jobs kept in the driver once written (as many failed ones
 *                         again), like Spark's {@code spark.ui.retainedJobs}; older ones are in the database and the
 *                         run's totals
 * @param retainedStages   {@code retained.stages}: completed stage attempts kept likewise
 * @param retainedSqlExecutions {@code retained.sqlExecutions}: ended SQL executions kept likewise
 * @param retainedDeadExecutors {@code retained.executors}: removed executors kept likewise, like Spark's
 *                         {@code spark.ui.retainedDeadExecutors}; an elastic application may add and remove thousands
 * @param prices           {@code cost.coreHour}, {@code cost.gbHour}, {@code cost.currency}: the operator's prices,
 *                         for the cost line of the driver-log report; {@link Prices#NONE} when unset
 * @param streamingLimits  {@code streaming.batchesPerQuery} (batches kept per Structured Streaming query run) and
 *                         {@code streaming.retainedQueries} (terminated runs kept)
 * @param diagnosisIntervalMs {@code diagnosis.intervalMs}: how often a running application's findings are computed
 *                         again; the flushes in between write the last ones (the final snapshot is always diagnosed)
 */
public record ListenerConfig(
        boolean enabled,
        String jdbcUrl,
        String jdbcUser,
        String jdbcPassword,
        int tasksPerStage,
        Path spoolDir,
        long spoolMaxBytes,
        long flushTimeoutMs,
        long flushIntervalMs,
        boolean reportEnabled,
        String uiUrl,
        int queueCapacity,
        long retryMaxBackoffMs,
        Map<String, String> heuristics,
        double regressionFactor,
        String webhookUrl,
        int tasksRetained,
        int retainedJobs,
        int retainedStages,
        int retainedSqlExecutions,
        int retainedDeadExecutors,
        Prices prices,
        StreamingLimits streamingLimits,
        long diagnosisIntervalMs) {

    /** Default of each {@code retained.*} window: Spark's own UI defaults. */
    public static final int DEFAULT_RETAINED = 1000;

    public static final String PREFIX = "spark.sparkscope.";
    private static final Pattern BYTES = Pattern.compile("(?i)\\s*(\\d+)\\s*([kmgt]?)i?b?\\s*");

    public ListenerConfig {
        heuristics = Map.copyOf(heuristics);
        prices = prices == null ? Prices.NONE : prices;
    }

    /** Never prints the password: records print all components otherwise. */
    @Override
    public String toString() {
        return "ListenerConfig[enabled=" + enabled + ", jdbcUrl=" + redactUrl(jdbcUrl) + ", jdbcUser=" + jdbcUser
                + ", tasksPerStage=" + tasksPerStage + ", tasksRetained=" + tasksRetained + ", retainedJobs="
                + retainedJobs + ", retainedStages=" + retainedStages + ", retainedSqlExecutions="
                + retainedSqlExecutions + ", retainedDeadExecutors=" + retainedDeadExecutors + ", spoolDir=" + spoolDir + ", spoolMaxBytes=" + spoolMaxBytes
                + ", flushTimeoutMs=" + flushTimeoutMs + ", reportEnabled=" + reportEnabled + ", uiUrl=" + uiUrl
                + ", diagnosisIntervalMs=" + diagnosisIntervalMs + ", regressionFactor=" + regressionFactor + ", webhookUrl=" + (webhookUrl == null ? null : "(set)")
                + ", streamingLimits=" + streamingLimits + "]";
    }

    /** Hides a password given inside a JDBC URL (…?password=…), for anything that prints the URL. */
    public static String redactUrl(String url) {
        return url == null ? null : url.replaceAll("(?i)(password=)[^&;]*", "$1*****");
    }

    public boolean hasDatabase() {
        return jdbcUrl != null && !jdbcUrl.isBlank();
    }

    /** @param conf all Spark configuration entries (only {@code spark.sparkscope.*} are read) */
    public static ListenerConfig from(Map<String, String> conf, Consumer<String> warn) {
        Reader r = new Reader(conf, warn);
        String badRedaction = io.sparkscope.core.redact.Redactor.invalidSetting(conf);
        if (badRedaction != null) {
            warn.accept(badRedaction + "; it is ignored, the built-in credential shapes still apply");
        }
        Map<String, String> heuristics = new TreeMap<>();
        String hPrefix = PREFIX + "heuristics.";
        conf.forEach((k, v) -> {
            if (k.startsWith(hPrefix)) {
                heuristics.put(k.substring(hPrefix.length()), v);
            }
        });
        return new ListenerConfig(
                r.bool("enabled", true),
                r.string("jdbc.url", null),
                r.string("jdbc.user", null),
                r.string("jdbc.password", null),
                (int) r.number("tasks.perStage", 10_000, 0, 1_000_000),
                Paths.get(r.string("spool.dir", Spool.defaultDir().toString())),
                r.bytes("spool.maxBytes", 256L << 20),
                r.number("flush.timeoutMs", 10_000, 0, 600_000),
                r.number("flush.intervalMs", 5_000, 100, 3_600_000),
                r.bool("report.enabled", true),
                r.string("ui.url", null),
                (int) r.number("queue.capacity", 50_000, 1_000, 10_000_000),
                r.number("retry.maxBackoffMs", 60_000, 100, 3_600_000),
                heuristics,
                r.decimal("regression.factor", 1.5, 1.0, 1_000),
                r.string("webhook.url", null),
                (int) r.number("tasks.retained", 100_000, 0, 100_000_000),
                (int) r.number("retained.jobs", DEFAULT_RETAINED, 1, 10_000_000),
                (int) r.number("retained.stages", DEFAULT_RETAINED, 1, 10_000_000),
                (int) r.number("retained.sqlExecutions", DEFAULT_RETAINED, 1, 10_000_000),
                (int) r.number("retained.executors", DEFAULT_RETAINED, 1, 10_000_000),
                r.prices(),
                new StreamingLimits(
                        (int) r.number("streaming.batchesPerQuery", StreamingLimits.DEFAULTS.batchesPerQuery(), 1,
                                1_000_000),
                        (int) r.number("streaming.retainedQueries", StreamingLimits.DEFAULTS.retainedQueryRuns(), 0,
                                100_000)),
                r.number("diagnosis.intervalMs", 30_000, 0, 86_400_000));
    }

    private record Reader(Map<String, String> conf, Consumer<String> warn) {
        /** The three cost keys together: one bad value drops the prices (a cost at half the prices is no cost). */
        Prices prices() {
            try {
                return Prices.parse(conf.get(PREFIX + "cost.coreHour"), conf.get(PREFIX + "cost.gbHour"),
                        conf.get(PREFIX + "cost.currency"), PREFIX + "cost.coreHour", PREFIX + "cost.gbHour",
                        PREFIX + "cost.currency");
            } catch (IllegalArgumentException e) {
                warn.accept(e.getMessage() + "; the driver-log report shows no cost");
                return Prices.NONE;
            }
        }

        String string(String key, String fallback) {
            String v = conf.get(PREFIX + key);
            return v == null || v.isBlank() ? fallback : v.trim();
        }

        boolean bool(String key, boolean fallback) {
            String v = conf.get(PREFIX + key);
            if (v == null) {
                return fallback;
            }
            String t = v.trim().toLowerCase(Locale.ROOT);
            if (t.equals("true") || t.equals("false")) {
                return Boolean.parseBoolean(t);
            }
            warn.accept("invalid value '" + v + "' for " + PREFIX + key + " (expected true or false); using "
                    + fallback);
            return fallback;
        }

        long number(String key, long fallback, long min, long max) {
            String v = conf.get(PREFIX + key);
            if (v == null) {
                return fallback;
            }
            try {
                long n = Long.parseLong(v.trim());
                if (n >= min && n <= max) {
                    return n;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            warn.accept("invalid value '" + v + "' for " + PREFIX + key + " (expected a whole number from " + min
                    + " to " + max + "); using " + fallback);
            return fallback;
        }

        double decimal(String key, double fallback, double min, double max) {
            String v = conf.get(PREFIX + key);
            if (v == null) {
                return fallback;
            }
            try {
                double n = Double.parseDouble(v.trim());
                if (n >= min && n <= max) {
                    return n;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            warn.accept("invalid value '" + v + "' for " + PREFIX + key + " (expected a number from " + min + " to "
                    + max + "); using " + fallback);
            return fallback;
        }

        long bytes(String key, long fallback) {
            String v = conf.get(PREFIX + key);
            if (v == null) {
                return fallback;
            }
            Matcher m = BYTES.matcher(v);
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
                    case "k" -> 10;
                    case "m" -> 20;
                    case "g" -> 30;
                    case "t" -> 40;
                    default -> 0;
                };
                return n << shift;
            }
            warn.accept("invalid value '" + v + "' for " + PREFIX + key + " (expected a size such as 512m or 1g); "
                    + "using " + fallback + " bytes");
            return fallback;
        }
    }
}
