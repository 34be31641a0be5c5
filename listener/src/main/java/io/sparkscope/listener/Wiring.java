package io.sparkscope.listener;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.HeuristicEngine;
import io.sparkscope.core.model.AppSnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
                    diagnose);
        }
        return new RecordingPipeline(cfg, delivery, diagnose, (s, f) -> SparkscopeListener.logReport(cfg, s, f));
    }

    /**
     * The heuristics with {@code spark.sparkscope.heuristics.*} applied; a bad key or value is named in one warning
     * and the defaults are used. A heuristic that throws is reported by the engine, never thrown.
     */
    static Function<AppSnapshot, List<Finding>> diagnoser(ListenerConfig cfg) {
        HeuristicEngine engine = HeuristicEngine.load(Wiring.class.getClassLoader());
        HeuristicConfig config = engine.defaultConfig();
        if (!cfg.heuristics().isEmpty()) {
            try {
                config = config.withOverrides(cfg.heuristics(), "spark.sparkscope.heuristics.*");
            } catch (IllegalArgumentException e) {
                LOG.warn("Sparkscope: {}; using the default heuristic thresholds", e.getMessage());
            }
        }
        HeuristicConfig effective = config;
        return s -> engine.run(s, effective).findings();
    }
}
