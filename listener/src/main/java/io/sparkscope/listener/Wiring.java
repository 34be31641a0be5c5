package io.sparkscope.listener;

import java.util.List;

/** Builds the pipeline from the configuration: recorder, optional database delivery, driver-log report. */
final class Wiring {
    private Wiring() {
    }

    static RecordingPipeline pipeline(ListenerConfig cfg) {
        SnapshotDelivery delivery = null;
        if (cfg.hasDatabase()) {
            delivery = new SnapshotDelivery(new JdbcSnapshotStore(cfg), new Spool(cfg.spoolDir(), cfg.spoolMaxBytes()));
        }
        return new RecordingPipeline(cfg, delivery, s -> SparkscopeListener.logReport(cfg, s, List.of()));
    }
}
