package io.sparkscope.listener;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sparkscope.store.Spool;

import java.util.List;
import java.util.function.Function;

/** Builds the pipeline from the configuration: recorder, heuristics, optional database delivery, report. */
final class Wiring {
    private static final Logger LOG = LoggerFactory.getLogger(Wiring.class);

    private Wiring() {
    }

    static RecordingPipeline pipeline(ListenerConfig cfg) {
        Function<AppSnapshot, List<Finding>> diagnose = diagnoser(cfg);
        SnapshotDelivery delivery = null;
        if (cfg.hasDatabase()) {
            delivery = new SnapshotDelivery(new JdbcSnapshotStore(cfg), new Spool(cfg.spoolDir(), cfg.spoolMaxBytes()),
                    diagnose, cfg.retryMaxBackoffMs());
        }
        return new RecordingPipeline(cfg, delivery, diagnose, (s, f) -> SparkscopeListener.logReport(cfg, s, f));
    }

    /**
     * The heuristics with {@code spark.sparkscope.heuristics.*} applied; a bad key or value is named in one warning
     * and the defaults are used. A heuristic that throws is reported by the engine, never thrown.
     */
    static Function<AppSnapshot, List<Finding>> diagnoser(ListenerConfig cfg) {
        Diagnoser diagnoser = Diagnoser.defaults();
        if (!cfg.heuristics().isEmpty()) {
            try {
                diagnoser = Diagnoser.withOverrides(cfg.heuristics(), "spark.sparkscope.heuristics.*");
            } catch (IllegalArgumentException e) {
                LOG.warn("Sparkscope: {}; using the default heuristic thresholds", e.getMessage());
            }
        }
        return diagnoser::diagnose;
    }
}
