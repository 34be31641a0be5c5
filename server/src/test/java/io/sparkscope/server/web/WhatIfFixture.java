package io.sparkscope.server.web;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.core.testing.SnapshotBuilder;

import javax.sql.DataSource;
import java.nio.file.Path;

import static io.sparkscope.core.testing.SnapshotBuilder.onCluster;

/**
 * A server over a database of its own for the what-if tests (the shared {@link WebFixture} data set is counted by
 * other tests): a local-mode run, a cluster run, a run whose snapshot kept only 2 tasks per stage, two attempts of
 * one application and an application with a hostile name.
 */
final class WhatIfFixture {
    static final long NOW = WebFixture.NOW;
    static final Path SHIPPED = ExampleEventLogs.DIR;

    private static OwnServer server;
    private static String partialAppId;

    private WhatIfFixture() {
    }

    static synchronized String base() {
        if (server == null) {
            DataSource ds = WebFixture.newDatabase();
            fill(ds);
            server = OwnServer.over(ds);
        }
        return server.base();
    }

    /** The run whose snapshot kept 2 tasks per stage. */
    static synchronized String partialAppId() {
        base();
        return partialAppId;
    }

    static WebFixture.Response get(String pathAndQuery) {
        return WebFixture.getAt(base(), pathAndQuery);
    }

    private static void fill(DataSource ds) {
        WebFixture.write(ds, SnapshotBuilder.synthetic(SnapshotBuilder.syntheticSpec("app-wi-local", "whatif local",
                "alice", NOW - WebFixture.HOUR, 600_000)));
        WebFixture.write(ds, onCluster(SnapshotBuilder.synthetic(SnapshotBuilder.syntheticSpec("app-wi-cluster",
                "whatif cluster", "alice", NOW - 2 * WebFixture.HOUR, 900_000)), 4, 2));
        var y = SnapshotBuilder.syntheticSpec("app-wi-yarn", "whatif yarn", "dave", NOW - 5 * WebFixture.HOUR, 300_000);
        for (int a = 1; a <= 2; a++) {
            WebFixture.write(ds, onCluster(SnapshotBuilder.synthetic(new SnapshotBuilder.SyntheticSpec(y.appId(),
                    String.valueOf(a), y.name(), y.user(), y.start() + a * WebFixture.HOUR, y.durationMs() * a, true,
                    y.conf(), 1, 2, 8, null, 0, a)), 2 * a, 2));
        }
        var x = SnapshotBuilder.syntheticSpec("app-wi-xss", WebFixture.XSS1, WebFixture.XSS2,
                NOW - 3 * WebFixture.HOUR, 120_000);
        WebFixture.write(ds, SnapshotBuilder.synthetic(x));
        // A real run (the shipped example) recorded as a listener with tasks.perStage=2 would have stored it.
        AppSnapshot partial;
        try {
            EventLogSource log = EventLogReader.discover(SHIPPED).get(0);
            partial = EventLogAnalysis.analyze(log, RecorderOptions.DEFAULTS.withTasksPerStage(2),
                    p -> { throw new AssertionError(p); }).snapshot();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the shipped example log in " + SHIPPED, e);
        }
        partialAppId = partial.appId();
        WebFixture.write(ds, partial);
    }
}
