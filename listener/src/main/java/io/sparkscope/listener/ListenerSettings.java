package io.sparkscope.listener;

import io.sparkscope.core.redact.Redactor;
import io.sparkscope.core.recorder.StreamingLimits;
import io.sparkscope.store.Spool;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every {@code spark.sparkscope.*} setting the listener reads, declared once: its name, type, default and what it
 * does. {@link ListenerConfig} reads through these and nothing else, and {@code docs/listener-settings.md} is made
 * from them ({@link #markdown}), so a setting cannot be read without being documented, nor documented with another
 * default than the one used.
 */
public final class ListenerSettings {
    public static final String PREFIX = "spark.sparkscope.";

    /**
     * One setting.
     *
     * @param name        the key without {@link #PREFIX}; ending in a dot, a family of keys (each one's rest is its
     *                    own name, as {@code heuristics.StageSkew.ratio.low})
     * @param type        what a value must look like, for the documentation
     * @param defaultValue the value used when the key is unset or invalid (null: none)
     * @param shownDefault the default as the documentation shows it (for a default that depends on the machine)
     * @param description one line: what the setting does
     * @param parse       a given (trimmed) value, or null when it is invalid
     * @param expected    what a valid value looks like, for the warning about an invalid one
     * @param fallback    the default as the warning about an invalid value says it is used instead
     */
    public record Setting<T>(String name, String type, T defaultValue, String shownDefault, String description,
                             Function<String, T> parse, String expected, String fallback) {
        public String key() {
            return PREFIX + name;
        }

        /** A blank value counts as unset (a text or a path; a blank number or switch is an invalid value). */
        boolean blankIsUnset() {
            return type.equals("text") || type.equals("path");
        }

        public boolean family() {
            return name.endsWith(".");
        }

        /** The key as the documentation lists it: a family's with {@code <key>} for the rest. */
        public String shownKey() {
            return family() ? key() + "<key>" : key();
        }
    }

    private static final Pattern SIZE = Pattern.compile("(?i)\\s*(\\d+)\\s*([kmgt]?)i?b?\\s*");

    public static final Setting<Boolean> ENABLED = bool("enabled", true,
            "switch the listener off without removing it");
    public static final Setting<String> JDBC_URL = text("jdbc.url",
            "the shared PostgreSQL; without a URL the listener only logs its report");
    public static final Setting<String> JDBC_USER = text("jdbc.user", "the database user");
    public static final Setting<String> JDBC_PASSWORD = text("jdbc.password",
            "the database password (never printed nor stored)");
    public static final Setting<Long> TASKS_PER_STAGE = whole("tasks.perStage", 10_000, 0, 1_000_000,
            "tasks kept in detail per stage attempt: all up to this cap, past it the slowest half and a uniform sample"
                    + " of the others (failed tasks besides, up to 1 000)");
    public static final Setting<Long> TASKS_RETAINED = whole("tasks.retained", 100_000, 0, 100_000_000,
            "the application's task-detail budget: once completed stages keep more tasks than this, the oldest keep"
                    + " only their 100 slowest");
    public static final Setting<Long> RETAINED_JOBS = retained("retained.jobs", "completed jobs",
            "`spark.ui.retainedJobs`");
    public static final Setting<Long> RETAINED_STAGES = retained("retained.stages", "completed stage attempts",
            "`spark.ui.retainedStages`");
    public static final Setting<Long> RETAINED_SQL_EXECUTIONS = retained("retained.sqlExecutions",
            "ended SQL executions", "`spark.sql.ui.retainedExecutions`");
    public static final Setting<Long> RETAINED_EXECUTORS = retained("retained.executors",
            "removed executors (an elastic application may add and remove thousands)",
            "`spark.ui.retainedDeadExecutors`");
    public static final Setting<Path> SPOOL_DIR = new Setting<>("spool.dir", "path", Spool.defaultDir(),
            "`<java.io.tmpdir>/sparkscope-spool-<user>`",
            "where snapshots wait while the database is away, delivered when it answers again or with"
                    + " `sparkscope import --spool <dir>`", Paths::get, "a path",
            Spool.defaultDir().toString());
    public static final Setting<Long> SPOOL_MAX_BYTES = new Setting<>("spool.maxBytes", "size", 256L << 20,
            "`256m`", "the most the spool holds (a size such as `512m` or `1g`)",
            ListenerSettings::bytes, "a size such as 512m or 1g",
            (256L << 20) + " bytes");
    public static final Setting<String> REDACTION_REGEX = text(Redactor.EXTRA_REGEX_KEY.substring(PREFIX.length()),
            "more patterns to hide, on top of Spark's `spark.redaction.regex` and the built-in credential shapes (see"
                    + " \"Secrets\" in [the guide](guide.md#the-listener-record-every-run)); kept as written, so put no"
                    + " secret in it");
    public static final Setting<Long> FLUSH_TIMEOUT_MS = whole("flush.timeoutMs", 10_000, 0, 600_000,
            "longest wait, in ms, at application end and JVM shutdown");
    public static final Setting<Long> FLUSH_INTERVAL_MS = whole("flush.intervalMs", 5_000, 100, 3_600_000,
            "how often, in ms, a running application's snapshot is written");
    public static final Setting<Long> DIAGNOSIS_INTERVAL_MS = whole("diagnosis.intervalMs", 30_000, 0, 86_400_000,
            "how often, in ms, a running application's findings are computed again (the heuristics over the retained"
                    + " window); the writes in between carry the last findings, so they may lag by this much. The final"
                    + " snapshot is always diagnosed; `0` diagnoses every write");
    public static final Setting<Boolean> REPORT_ENABLED = bool("report.enabled", true,
            "the driver-log report at application end");
    public static final Setting<String> UI_URL = text("ui.url",
            "Sparkscope server address, printed as a link in the report and sent in webhook links");
    public static final Setting<Long> QUEUE_CAPACITY = whole("queue.capacity", 50_000, 1_000, 10_000_000,
            "events waiting between Spark's listener bus and the recorder; past it events are dropped, with one"
                    + " warning and a count");
    public static final Setting<Long> RETRY_MAX_BACKOFF_MS = whole("retry.maxBackoffMs", 60_000, 100, 3_600_000,
            "longest wait, in ms, between two tries to write to a database that does not answer (the wait doubles"
                    + " from 0.5 s up to this)");
    public static final Setting<Map<String, String>> HEURISTICS = new Setting<>("heuristics.", "text", Map.of(), "—",
            "a heuristic's threshold, e.g. `spark.sparkscope.heuristics.StageSkew.ratio.low=4`", v -> null, "",
            "");
    public static final Setting<Double> REGRESSION_FACTOR = new Setting<>("regression.factor",
            "number from 1.0 to 1000.0", 1.5, "`1.5`",
            "a run this many times slower than the median of its previous runs gets a Regression finding",
            v -> decimal(v, 1.0, 1_000), "a number from 1.0 to 1000.0", "1.5");
    public static final Setting<String> WEBHOOK_URL = text("webhook.url",
            "POST a JSON notification here when the application ends with a HIGH finding or a Regression (see"
                    + " [Regressions and notifications](guide.md#regressions-and-notifications))");
    public static final Setting<String> COST_CORE_HOUR = price("cost.coreHour", "number ≥ 0",
            "the operator's price of an executor core-hour; with the two below, the driver-log report shows the"
                    + " run's cost and its waste in money (see [Efficiency and cost](guide.md#efficiency-and-cost))");
    public static final Setting<String> COST_GB_HOUR = price("cost.gbHour", "number ≥ 0",
            "the operator's price of a GiB-hour of executor memory");
    public static final Setting<String> COST_CURRENCY = price("cost.currency", "text",
            "a label for the prices, such as `EUR`");
    public static final Setting<Long> STREAMING_BATCHES_PER_QUERY = whole("streaming.batchesPerQuery",
            StreamingLimits.DEFAULTS.batchesPerQuery(), 1, 1_000_000,
            "Structured Streaming batches kept per query run in the driver (the newest); older ones stay in the"
                    + " database and in the run's totals");
    public static final Setting<Long> STREAMING_RETAINED_QUERIES = whole("streaming.retainedQueries",
            StreamingLimits.DEFAULTS.retainedQueryRuns(), 0, 100_000,
            "terminated query runs kept in the driver; running ones always stay");

    /** Every setting, in the order the documentation lists them. */
    public static final List<Setting<?>> ALL = List.of(ENABLED, JDBC_URL, JDBC_USER, JDBC_PASSWORD, TASKS_PER_STAGE,
            TASKS_RETAINED, RETAINED_JOBS, RETAINED_STAGES, RETAINED_SQL_EXECUTIONS, RETAINED_EXECUTORS, SPOOL_DIR,
            SPOOL_MAX_BYTES, REDACTION_REGEX, FLUSH_TIMEOUT_MS, FLUSH_INTERVAL_MS, DIAGNOSIS_INTERVAL_MS,
            REPORT_ENABLED, UI_URL, WEBHOOK_URL, REGRESSION_FACTOR, COST_CORE_HOUR, COST_GB_HOUR, COST_CURRENCY,
            STREAMING_BATCHES_PER_QUERY, STREAMING_RETAINED_QUERIES, QUEUE_CAPACITY, RETRY_MAX_BACKOFF_MS,
            HEURISTICS);

    private ListenerSettings() {
    }

    /**
     * Reads settings from Spark's configuration. An invalid value never stops the application: it gives one warning
     * naming the key, the bad value and the value used instead.
     */
    record Reader(Map<String, String> conf, java.util.function.Consumer<String> warn) {
        <T> T get(Setting<T> s) {
            String v = raw(s);
            if (v == null || v.isBlank() && s.blankIsUnset()) {
                return s.defaultValue();
            }
            T parsed = s.parse().apply(v.trim());
            if (parsed != null) {
                return parsed;
            }
            warn.accept("invalid value '" + v + "' for " + s.key() + " (expected " + s.expected() + "); using "
                    + s.fallback());
            return s.defaultValue();
        }

        /** The value as given (null when unset), for settings read together elsewhere (the prices). */
        String raw(Setting<?> s) {
            return conf.get(s.key());
        }

        /** A family's keys with the family's prefix removed, sorted. */
        Map<String, String> family(Setting<?> s) {
            Map<String, String> out = new TreeMap<>();
            conf.forEach((k, v) -> {
                if (k.startsWith(s.key())) {
                    out.put(k.substring(s.key().length()), v);
                }
            });
            return out;
        }
    }

    /** The documentation, {@code docs/listener-settings.md}: one row per setting. */
    public static String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("# Listener settings\n\n")
                .append("<!-- Made from io.sparkscope.listener.ListenerSettings: change the declaration there, then run\n")
                .append("     mvn -B -o -q -pl listener -am test -Dtest=ListenerSettingsTest -Dsurefire.failIfNoSpecifiedTests=false -Dsparkscope.writeDocs=true -->\n\n")
                .append("The listener reads these Spark settings (`--conf key=value` on `spark-submit`, or the cluster's\n")
                .append("Spark configuration). An invalid value never stops the application: it gives one warning in\n")
                .append("the driver log naming the key, the bad value and the value used instead.\n\n")
                .append("| key | type | default | meaning |\n")
                .append("|---|---|---|---|\n");
        for (Setting<?> s : ALL) {
            b.append("| `").append(s.shownKey()).append("` | ").append(s.type()).append(" | ")
                    .append(s.shownDefault()).append(" | ").append(s.description()).append(" |\n");
        }
        return b.toString();
    }

    private static Setting<Boolean> bool(String name, boolean fallback, String description) {
        return new Setting<>(name, "boolean", fallback, "`" + fallback + "`", description, v -> {
            String t = v.toLowerCase(Locale.ROOT);
            return t.equals("true") || t.equals("false") ? Boolean.valueOf(t) : null;
        }, "true or false", String.valueOf(fallback));
    }

    private static Setting<String> text(String name, String description) {
        return new Setting<>(name, "text", null, "—", description, v -> v, "", "none");
    }

    /** One of the three prices, which are checked together by {@code Prices.parse} (one bad value drops them all). */
    private static Setting<String> price(String name, String type, String description) {
        return new Setting<>(name, type, null, "—", description, v -> v, "", "none");
    }

    private static Setting<Long> whole(String name, long fallback, long min, long max, String description) {
        return new Setting<>(name, "whole number from " + min + " to " + max, fallback, "`" + fallback + "`",
                description, v -> {
                    try {
                        long n = Long.parseLong(v);
                        return n >= min && n <= max ? n : null;
                    } catch (NumberFormatException e) {
                        return null;
                    }
                }, "a whole number from " + min + " to " + max, String.valueOf(fallback));
    }

    /** A {@code retained.*} window, at Spark's own UI default. */
    private static Setting<Long> retained(String name, String what, String sparks) {
        return whole(name, ListenerConfig.DEFAULT_RETAINED, 1, 10_000_000, what + " kept in the driver once written"
                + " (as many failed ones again), like Spark's " + sparks + "; older ones are in the database and the"
                + " run's totals. The four windows at their defaults: ≈ 34 MB of driver heap, plus plan text (see"
                + " [Memory](guide.md#memory))");
    }

    private static Double decimal(String v, double min, double max) {
        try {
            double n = Double.parseDouble(v);
            return n >= min && n <= max ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Long bytes(String v) {
        Matcher m = SIZE.matcher(v);
        if (!m.matches()) {
            return null;
        }
        int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        return Long.parseLong(m.group(1)) << shift;
    }
}
