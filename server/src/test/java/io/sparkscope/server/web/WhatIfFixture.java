package io.sparkscope.server.web;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.recorder.RecorderOptions;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A server over a database of its own for the what-if tests (the shared {@link WebFixture} data set is counted by
 * other tests): a local-mode run, a cluster run, a run whose snapshot kept only 2 tasks per stage, two attempts of
 * one application and an application with a hostile name.
 */
final class WhatIfFixture {
    static final long NOW = WebFixture.NOW;
    static final Path SHIPPED = Paths.get(System.getProperty("sparkscope.repo.root", ".."), "examples", "eventlogs");

    private static WebServer server;
    private static int port;
    private static String partialAppId;

    private WhatIfFixture() {
    }

    static synchronized String base() {
        if (server == null) {
            DataSource ds = WebFixture.newDatabase();
            fill(ds);
            server = new WebServer(ds, new WebServer.Options(null, null), () -> NOW);
            port = server.start("127.0.0.1", 0);
        }
        return "http://127.0.0.1:" + port;
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
        WebFixture.write(ds, SyntheticApps.snapshot(SyntheticApps.spec("app-wi-local", "whatif local", "alice",
                NOW - WebFixture.HOUR, 600_000)));
        WebFixture.write(ds, cluster(SyntheticApps.snapshot(SyntheticApps.spec("app-wi-cluster", "whatif cluster",
                "alice", NOW - 2 * WebFixture.HOUR, 900_000)), 4, 2));
        var y = SyntheticApps.spec("app-wi-yarn", "whatif yarn", "dave", NOW - 5 * WebFixture.HOUR, 300_000);
        for (int a = 1; a <= 2; a++) {
            WebFixture.write(ds, cluster(SyntheticApps.snapshot(new SyntheticApps.Spec(y.appId(), String.valueOf(a),
                    y.name(), y.user(), y.start() + a * WebFixture.HOUR, y.durationMs() * a, true, y.conf(), 1, 2, 8,
                    null, 0, a)), 2 * a, 2));
        }
        var x = SyntheticApps.spec("app-wi-xss", WebFixture.XSS1, WebFixture.XSS2, NOW - 3 * WebFixture.HOUR, 120_000);
        WebFixture.write(ds, SyntheticApps.snapshot(x));
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

    /** The same run on {@code executors} executors of {@code cores} cores, alive the whole run, instead of local mode. */
    static AppSnapshot cluster(AppSnapshot s, int executors, int cores) {
        List<ExecutorSummary> list = new ArrayList<>();
        list.add(new ExecutorSummary("driver", "driver-host", 0, s.startTime(), -1, null, 1L << 30, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, Map.of()));
        ExecutorSummary local = s.executors().get(0);
        for (int i = 1; i <= executors; i++) {
            list.add(new ExecutorSummary(String.valueOf(i), "worker-" + i, cores, s.startTime(), -1, null, 4L << 30,
                    local.completedTasks() / executors, 0, 0, local.totalDuration() / executors,
                    local.totalRunTime() / executors, local.totalCpuTimeNs() / executors,
                    local.totalGcTime() / executors, 0, 0, 0, 0, 0, Map.of()));
        }
        Map<String, String> conf = new LinkedHashMap<>(s.config().sparkProperties());
        conf.put("spark.master", "yarn");
        conf.put("spark.executor.cores", String.valueOf(cores));
        conf.put("spark.yarn.queue", "etl");
        var config = new AppConfig(conf, s.config().jvmInformation(),
                s.config().systemProperties(), s.config().hadoopProperties());
        return new AppSnapshot(s.appId(), s.attemptId(), s.appName(), s.sparkUser(), s.sparkVersion(), s.startTime(),
                s.endTime(), s.lastEventTime(), s.complete(), config, list, s.jobs(), s.stages(), s.sqlExecutions(),
                s.driverGcTimeMs(), s.driverMaxMemory(), s.eventCount(), s.unknownEventTypes());
    }
}
