package io.sparkscope.listener;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.recorder.StreamingLimits;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;

import static io.sparkscope.listener.ListenerSettings.*;

/**
 * The listener's settings, read from {@code spark.sparkscope.*} through their declaration in
 * {@link ListenerSettings} (names, types, defaults and the documentation are there). An invalid value never stops
 * the application: it gives one warning naming the key, the bad value and the value used instead.
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
        ListenerSettings.Reader r = new ListenerSettings.Reader(conf, warn);
        String badRedaction = io.sparkscope.core.redact.Redactor.invalidSetting(conf);
        if (badRedaction != null) {
            warn.accept(badRedaction + "; it is ignored, the built-in credential shapes still apply");
        }
        return new ListenerConfig(
                r.get(ENABLED),
                r.get(JDBC_URL),
                r.get(JDBC_USER),
                r.get(JDBC_PASSWORD),
                r.get(TASKS_PER_STAGE).intValue(),
                r.get(SPOOL_DIR),
                r.get(SPOOL_MAX_BYTES),
                r.get(FLUSH_TIMEOUT_MS),
                r.get(FLUSH_INTERVAL_MS),
                r.get(REPORT_ENABLED),
                r.get(UI_URL),
                r.get(QUEUE_CAPACITY).intValue(),
                r.get(RETRY_MAX_BACKOFF_MS),
                r.family(HEURISTICS),
                r.get(REGRESSION_FACTOR),
                r.get(WEBHOOK_URL),
                r.get(TASKS_RETAINED).intValue(),
                r.get(RETAINED_JOBS).intValue(),
                r.get(RETAINED_STAGES).intValue(),
                r.get(RETAINED_SQL_EXECUTIONS).intValue(),
                r.get(RETAINED_EXECUTORS).intValue(),
                prices(r, warn),
                new StreamingLimits(r.get(STREAMING_BATCHES_PER_QUERY).intValue(),
                        r.get(STREAMING_RETAINED_QUERIES).intValue()),
                r.get(DIAGNOSIS_INTERVAL_MS));
    }

    /** The three cost keys together: one bad value drops the prices (a cost at half the prices is no cost). */
    private static Prices prices(ListenerSettings.Reader r, Consumer<String> warn) {
        try {
            return Prices.parse(r.raw(COST_CORE_HOUR), r.raw(COST_GB_HOUR), r.raw(COST_CURRENCY), COST_CORE_HOUR.key(),
                    COST_GB_HOUR.key(), COST_CURRENCY.key());
        } catch (IllegalArgumentException e) {
            warn.accept(e.getMessage() + "; the driver-log report shows no cost");
            return Prices.NONE;
        }
    }
}
