package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.sql.SqlMetricIds;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.Lineage;
import io.sparkscope.core.report.TextReport;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.apache.spark.scheduler.SparkListenerApplicationStart;
import org.apache.spark.scheduler.SparkListenerBlockManagerAdded;
import org.apache.spark.scheduler.SparkListenerEnvironmentUpdate;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerExecutorMetricsUpdate;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Records a running Spark application into Sparkscope's database:
 * {@code --conf spark.extraListeners=io.sparkscope.listener.SparkscopeListener --jars sparkscope-listener.jar}.
 *
 * <p>Every callback converts the event and enqueues it; nothing here does I/O, blocks or lets an exception reach
 * Spark (the one bounded wait is at application end, {@code spark.sparkscope.flush.timeoutMs}, so the final state
 * is written before the driver exits). See {@link RecordingPipeline}.
 */
public class SparkscopeListener extends SparkListener {
    private static final Logger LOG = LoggerFactory.getLogger(SparkscopeListener.class);

    private final ListenerConfig config;
    private final RecordingPipeline pipeline;
    private final AtomicBoolean errorLogged = new AtomicBoolean();
    private final AtomicBoolean streamingErrorLogged = new AtomicBoolean();
    private volatile StreamingTriggers triggers;
    private final AtomicBoolean ended = new AtomicBoolean();
    /**
     * SQL metrics of the running executions; read and updated on Spark's listener-bus thread only (task ends and
     * SQL events of one listener arrive on the same thread).
     */
    private final SqlMetricIds sqlMetricIds = new SqlMetricIds();
    /** The most recently created listener: Spark creates it from spark.extraListeners, so tests find it here. */
    private static volatile SparkscopeListener latest;

    public SparkscopeListener(SparkConf conf) {
        this(toMap(conf));
    }

    /** For tests and embedding: the same settings as Spark configuration entries. */
    public SparkscopeListener(Map<String, String> conf) {
        ListenerConfig cfg;
        RecordingPipeline p = null;
        try {
            cfg = ListenerConfig.from(conf, w -> LOG.warn("Sparkscope: {}", w));
            if (cfg.enabled()) {
                p = Wiring.pipeline(cfg);
                p.start();
                p.offer(new SparkEvent.LogStart(sparkVersion()));
                RecordingPipeline hooked = p;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> onJvmShutdown(hooked), "sparkscope-shutdown"));
                LOG.info("Sparkscope: recording this application{}", cfg.hasDatabase()
                        ? " into " + ListenerConfig.redactUrl(cfg.jdbcUrl()) : " (no spark.sparkscope.jdbc.url: report only)");
            } else {
                LOG.info("Sparkscope: disabled by spark.sparkscope.enabled=false");
            }
        } catch (Throwable t) {
            // A listener that cannot start must not take the application down with it.
            LOG.warn("Sparkscope: listener disabled, could not start ({})", SnapshotDelivery.oneLine(t));
            cfg = ListenerConfig.from(Map.of(ListenerSettings.ENABLED.key(), "false"), w -> { });
            p = null;
        }
        this.config = cfg;
        this.pipeline = p;
        latest = this;
    }

    /** The listener Spark created last in this JVM (tests, embedding), or null. */
    public static SparkscopeListener latest() {
        return latest;
    }

    private static Map<String, String> toMap(SparkConf conf) {
        Map<String, String> m = new HashMap<>();
        for (scala.Tuple2<String, String> kv : conf.getAll()) {
            m.put(kv._1(), kv._2());
        }
        return m;
    }

    private static String sparkVersion() {
        try {
            return org.apache.spark.package$.MODULE$.SPARK_VERSION();
        } catch (Throwable t) {
            return null;
        }
    }

    /** The last snapshot handed to the writer (tests and embedding). */
    public AppSnapshot lastSnapshot() {
        return pipeline == null ? null : pipeline.lastSnapshot();
    }

    /** Findings of the last snapshot handed to the writer. */
    public List<Finding> lastFindings() {
        return pipeline == null ? List.of() : pipeline.lastFindings();
    }

    /** The recording pipeline, or null when disabled (tests of this package). */
    RecordingPipeline pipeline() {
        return pipeline;
    }

    public long droppedEvents() {
        return pipeline == null ? 0 : pipeline.droppedEvents();
    }

    private void enqueue(Supplier<SparkEvent> conversion) {
        if (pipeline == null) {
            return;
        }
        try {
            pipeline.offer(conversion.get());
        } catch (Throwable t) {
            if (errorLogged.compareAndSet(false, true)) {
                LOG.warn("Sparkscope: could not convert a Spark event ({}); skipping such events",
                        SnapshotDelivery.oneLine(t));
            }
        }
    }

    @Override
    public void onApplicationStart(SparkListenerApplicationStart e) {
        enqueue(() -> SparkEventConverter.applicationStart(e));
    }

    @Override
    public void onApplicationEnd(SparkListenerApplicationEnd e) {
        enqueue(() -> SparkEventConverter.applicationEnd(e));
        if (pipeline != null && ended.compareAndSet(false, true)) {
            try {
                if (!pipeline.awaitFinished(config.flushTimeoutMs())) {
                    LOG.warn("Sparkscope: final write not confirmed within {} ms (spark.sparkscope.flush.timeoutMs); "
                            + "it continues in the background or stays in the spool", config.flushTimeoutMs());
                }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            } catch (Throwable t) {
                LOG.warn("Sparkscope: {}", SnapshotDelivery.oneLine(t));
            }
        }
    }

    private void onJvmShutdown(RecordingPipeline p) {
        try {
            if (ended.compareAndSet(false, true)) {
                // The application never posted its end (killed driver, System.exit): keep what we have.
                p.requestFinalFlush();
                p.awaitFinished(config.flushTimeoutMs());
            } else {
                // Ended normally: let late events and the last write finish before the JVM goes.
                p.awaitDone(config.flushTimeoutMs());
            }
        } catch (Throwable ignored) {
            // shutting down anyway
        }
    }

    @Override
    public void onEnvironmentUpdate(SparkListenerEnvironmentUpdate e) {
        enqueue(() -> {
            SparkEvent.EnvironmentUpdate env = SparkEventConverter.environment(e);
            // The scheduler's job is read from these settings; a malformed one is skipped, and said once here.
            for (String w : Lineage.of(env.sparkProperties()).warnings()) {
                LOG.warn("Sparkscope: {}", w);
            }
            return env;
        });
    }

    @Override
    public void onExecutorAdded(SparkListenerExecutorAdded e) {
        enqueue(() -> SparkEventConverter.executorAdded(e));
    }

    @Override
    public void onExecutorRemoved(SparkListenerExecutorRemoved e) {
        enqueue(() -> SparkEventConverter.executorRemoved(e));
    }

    @Override
    public void onBlockManagerAdded(SparkListenerBlockManagerAdded e) {
        enqueue(() -> SparkEventConverter.blockManagerAdded(e));
    }

    @Override
    public void onJobStart(SparkListenerJobStart e) {
        enqueue(() -> SparkEventConverter.jobStart(e));
    }

    @Override
    public void onJobEnd(SparkListenerJobEnd e) {
        enqueue(() -> SparkEventConverter.jobEnd(e));
    }

    @Override
    public void onStageSubmitted(SparkListenerStageSubmitted e) {
        enqueue(() -> new SparkEvent.StageSubmitted(SparkEventConverter.stage(e.stageInfo(), false)));
    }

    @Override
    public void onStageCompleted(SparkListenerStageCompleted e) {
        enqueue(() -> new SparkEvent.StageCompleted(SparkEventConverter.stage(e.stageInfo(), true)));
    }

    @Override
    public void onTaskStart(SparkListenerTaskStart e) {
        enqueue(() -> SparkEventConverter.taskStart(e));
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd e) {
        enqueue(() -> SparkEventConverter.taskEnd(e, sqlMetricIds));
    }

    /**
     * Every heartbeat carries the executor's (or, from the driver's own heartbeat, the driver's) peak metrics since
     * the previous one, one sample per active stage: they become one event, so the recorder knows heap peaks even
     * when the application logs no executor metrics. Work per call: the few active stages times ~20 metrics.
     */
    @Override
    public void onExecutorMetricsUpdate(SparkListenerExecutorMetricsUpdate e) {
        if (pipeline == null || e.executorUpdates().isEmpty()) {
            return;
        }
        try {
            pipeline.offer(new SparkEvent.ExecutorMetricsUpdate(e.execId(),
                    SparkEventConverter.merged(e.executorUpdates().valuesIterator())));
        } catch (Throwable t) {
            if (errorLogged.compareAndSet(false, true)) {
                LOG.warn("Sparkscope: could not convert executor metrics ({})", SnapshotDelivery.oneLine(t));
            }
        }
    }

    /** SQL executions and Structured Streaming's query events arrive as "other" events from spark-sql. */
    @Override
    public void onOtherEvent(SparkListenerEvent e) {
        if (pipeline == null) {
            return;
        }
        if (e.getClass().getName().startsWith(StreamingEventConverter.PACKAGE)) {
            onStreamingEvent(e);
            return;
        }
        try {
            SparkEvent converted = SqlEventConverter.convert(e);
            if (converted != null) {
                sqlMetricIds.onEvent(converted);
                pipeline.offer(converted);
            }
        } catch (Throwable t) {
            if (errorLogged.compareAndSet(false, true)) {
                LOG.warn("Sparkscope: could not convert a SQL event ({}); skipping such events",
                        SnapshotDelivery.oneLine(t));
            }
        }
    }

    private void onStreamingEvent(SparkListenerEvent e) {
        try {
            SparkEvent converted = StreamingEventConverter.convert(e);
            if (converted == null) {
                return;
            }
            pipeline.offer(converted);
            if (converted instanceof SparkEvent.StreamingQueryStarted started) {
                StreamingTriggers t = triggers;
                if (t == null) {
                    synchronized (this) {
                        if (triggers == null) {
                            triggers = new StreamingTriggers(pipeline::offer);
                        }
                        t = triggers;
                    }
                }
                t.lookUp(started.queryId(), started.runId());
            }
        } catch (Throwable t) {
            if (streamingErrorLogged.compareAndSet(false, true)) {
                LOG.warn("Sparkscope: could not convert a streaming query event ({}); skipping such events",
                        SnapshotDelivery.oneLine(t));
            }
        }
    }

    /**
     * The driver-log report: one INFO block at application end.
     *
     * @param notStored why the application is not in the database, or null when it is (see
     *                  {@link RecordingPipeline#notStored})
     */
    static void logReport(ListenerConfig cfg, AppSnapshot s, List<Finding> findings, String notStored) {
        if (!cfg.reportEnabled() || s == null) {
            return;
        }
        LOG.info("\n{}", reportText(cfg, s, findings, notStored));
    }

    /**
     * The report's text. The link to the server only when the application is in the database: a link to a page that
     * does not exist would send the user looking for a run that was never stored. Instead one line says why not,
     * when someone expects it stored (a database is configured, or a server address is given).
     */
    static String reportText(ListenerConfig cfg, AppSnapshot s, List<Finding> findings, String notStored) {
        String link = cfg.uiUrl() == null || notStored != null ? null
                : cfg.uiUrl().replaceAll("/+$", "") + "/apps/" + s.appId()
                + (s.attemptId() == null ? "" : "/" + s.attemptId());
        String report = TextReport.render(s, findings, 5, link, cfg.prices());
        if (notStored != null && (cfg.hasDatabase() || cfg.uiUrl() != null)) {
            report += "  Not stored in the Sparkscope database: " + notStored + "\n";
        }
        return report;
    }
}
