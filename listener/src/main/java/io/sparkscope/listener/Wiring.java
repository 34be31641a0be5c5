package io.sparkscope.listener;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.notify.WebhookNotifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sparkscope.store.Spool;
import io.sparkscope.store.SpoolTarget;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Function;

/** Builds the pipeline from the configuration: recorder, heuristics, optional database delivery, report. */
final class Wiring {
    private static final Logger LOG = LoggerFactory.getLogger(Wiring.class);

    private Wiring() {
    }

    static RecordingPipeline pipeline(ListenerConfig cfg) {
        Function<AppSnapshot, List<Finding>> diagnose = diagnoser(cfg);
        WebhookNotifier notifier = webhook(cfg);
        SnapshotDelivery delivery = null;
        // The report asks the pipeline whether the run reached the database, so it links to the server only then.
        AtomicReference<RecordingPipeline> self = new AtomicReference<>();
        BiConsumer<AppSnapshot, List<Finding>> onFinal =
                (s, f) -> SparkscopeListener.logReport(cfg, s, f, self.get().notStored());
        if (cfg.hasDatabase()) {
            // With a database the webhook fires once the final snapshot is written: its findings then include the
            // Regression found against the stored previous runs.
            BiConsumer<AppSnapshot, List<Finding>> written = notifier == null ? (s, f) -> { }
                    : notifier::notifyFinished;
            delivery = new SnapshotDelivery(new JdbcSnapshotStore(cfg, written),
                    spool(cfg), diagnose, cfg.retryMaxBackoffMs());
        } else if (notifier != null) {
            onFinal = onFinal.andThen(notifier::notifyFinished);
        }
        RecordingPipeline pipeline = new RecordingPipeline(cfg, delivery, diagnose, onFinal, notifier);
        self.set(pipeline);
        return pipeline;
    }

    /**
     * The spool for this listener's database: it delivers only what was spooled for that database (URL and user)
     * by this user, and leaves the rest in place with one warning per kind.
     */
    static Spool spool(ListenerConfig cfg) {
        return new Spool(cfg.spoolDir(), cfg.spoolMaxBytes(), SpoolTarget.of(cfg.jdbcUrl(), cfg.jdbcUser()),
                message -> LOG.warn("Sparkscope: {}", message));
    }

    /** The webhook of {@code spark.sparkscope.webhook.url}, or null (none, or an invalid URL: one warning). */
    static WebhookNotifier webhook(ListenerConfig cfg) {
        if (cfg.webhookUrl() == null) {
            return null;
        }
        try {
            return new WebhookNotifier(cfg.webhookUrl(), cfg.uiUrl());
        } catch (IllegalArgumentException e) {
            LOG.warn("Sparkscope: invalid spark.sparkscope.webhook.url ({}); no notifications", e.getMessage());
            return null;
        }
    }

    /**
     * The heuristics with {@code spark.sparkscope.heuristics.*} applied; a bad key or value is named in one warning
     * and the defaults are used. A heuristic that throws is reported by the engine, never thrown.
     */
    static Function<AppSnapshot, List<Finding>> diagnoser(ListenerConfig cfg) {
        Diagnoser diagnoser = Diagnoser.defaults();
        if (!cfg.heuristics().isEmpty()) {
            try {
                diagnoser = Diagnoser.withOverrides(cfg.heuristics(), ListenerSettings.HEURISTICS.key() + "*");
            } catch (IllegalArgumentException e) {
                LOG.warn("Sparkscope: {}; using the default heuristic thresholds", e.getMessage());
            }
        }
        return diagnoser::diagnose;
    }
}
