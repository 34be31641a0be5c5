package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Method;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Finds the trigger a streaming query was started with: neither Spark's events nor its event log carry it, but the
 * running query does ({@code StreamExecution.trigger}). Looked up on a thread of its own, never on Spark's listener
 * bus: the query manager's lookup takes a lock that a query start may hold while it stops an older run.
 *
 * <p>Best effort: the query is looked up in the default session (a query started from another session is not found),
 * through Spark's internal classes by name, so a Spark that renames them only loses the trigger (logged once at
 * debug). At most {@value #PENDING} lookups wait; more are dropped.
 */
final class StreamingTriggers {
    private static final Logger LOG = LoggerFactory.getLogger(StreamingTriggers.class);
    static final int PENDING = 64;

    private final Consumer<SparkEvent> sink;
    private final ThreadPoolExecutor executor;
    private volatile boolean failureLogged;

    StreamingTriggers(Consumer<SparkEvent> sink) {
        this.sink = sink;
        this.executor = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(PENDING), r -> {
            Thread t = new Thread(r, "sparkscope-streaming-trigger");
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.DiscardPolicy());
        executor.allowCoreThreadTimeOut(true);
    }

    /** Called on Spark's bus thread: returns at once. */
    void lookUp(String queryId, String runId) {
        executor.execute(() -> {
            try {
                SparkEvent.StreamingQueryTrigger t = find(queryId, runId);
                if (t != null) {
                    sink.accept(t);
                }
            } catch (Throwable e) {
                if (!failureLogged) {
                    failureLogged = true;
                    LOG.debug("Sparkscope: the trigger of streaming queries is not known ({})",
                            SnapshotDelivery.oneLine(e));
                }
            }
        });
    }

    static SparkEvent.StreamingQueryTrigger find(String queryId, String runId) throws ReflectiveOperationException {
        Class<?> sessions = Class.forName("org.apache.spark.sql.SparkSession");
        scala.Option<?> session = (scala.Option<?>) sessions.getMethod("getDefaultSession").invoke(null);
        if (session == null || session.isEmpty()) {
            return null;
        }
        Object streams = call(session.get(), "streams");
        Object query = streams.getClass().getMethod("get", UUID.class).invoke(streams, UUID.fromString(queryId));
        if (query == null || !runId.equals(String.valueOf(call(query, "runId")))) {
            return null;
        }
        Object execution = call(query, "streamingQuery"); // StreamingQueryWrapper → StreamExecution
        Object trigger = call(execution, "trigger");
        String kind = trigger.getClass().getSimpleName().replace("$", "");
        return switch (kind) {
            case "ProcessingTimeTrigger", "ProcessingTime" ->
                    new SparkEvent.StreamingQueryTrigger(queryId, runId, "ProcessingTime", interval(trigger));
            case "ContinuousTrigger", "Continuous" ->
                    new SparkEvent.StreamingQueryTrigger(queryId, runId, "Continuous", interval(trigger));
            case "OneTimeTrigger" -> new SparkEvent.StreamingQueryTrigger(queryId, runId, "Once", -1);
            case "AvailableNowTrigger" -> new SparkEvent.StreamingQueryTrigger(queryId, runId, "AvailableNow", -1);
            default -> null;
        };
    }

    private static long interval(Object trigger) throws ReflectiveOperationException {
        return ((Number) call(trigger, "intervalMs")).longValue();
    }

    private static Object call(Object target, String method) throws ReflectiveOperationException {
        Method m = target.getClass().getMethod(method);
        m.setAccessible(true);
        return m.invoke(target);
    }

    void shutdown() {
        executor.shutdownNow();
    }
}
