package io.sparkscope.server.web;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.analysis.JobKey;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.ingest.IngestResult;
import io.sparkscope.store.ingest.IngestService;

import javax.sql.DataSource;
import java.util.List;
import java.util.Map;

/**
 * A server over a database of its own for the diagnosis and job-history tests:
 * <ul>
 *   <li>{@code app-diag}: a stage whose task ran out of memory four times fails, its job fails, another stage is
 *       cancelled ({@link SnapshotBuilder}), diagnosed by the real engine;</li>
 *   <li>for the dashboard: three applications with a cheap LOW finding each and one with a costly HIGH one;</li>
 *   <li>job history through the ingest service (so Regression is computed): "etl" of alice's
 *       {@code com.example.Etl} (5 daily runs, the last one slow), an unrelated "etl" of bob's {@code org.other.Load}
 *       ten times slower, and four "Spark shell" sessions of four users, the last one long.</li>
 * </ul>
 */
final class DiagnosisFixture {
    static final long NOW = WebFixture.NOW;
    static final long DAY = WebFixture.DAY;
    static final String ALICE_ETL = "org.apache.spark.deploy.SparkSubmit --master yarn --class com.example.Etl etl.jar";
    static final String BOB_ETL = "org.apache.spark.deploy.SparkSubmit --master yarn --class org.other.Load load.jar";
    static final String SHELL = "org.apache.spark.deploy.SparkSubmit --master yarn --class org.apache.spark.repl.Main"
            + " --name Spark shell spark-shell";

    private static DataSource data;
    private static WebServer server;
    private static int port;

    private DiagnosisFixture() {
    }

    static synchronized DataSource data() {
        if (data == null) {
            data = WebFixture.newDatabase();
            fill(data);
        }
        return data;
    }

    static synchronized String base() {
        if (server == null) {
            server = new WebServer(data(), new WebServer.Options(null, null), () -> NOW);
            port = server.start("127.0.0.1", 0);
        }
        return "http://127.0.0.1:" + port;
    }

    static WebFixture.Response get(String pathAndQuery) {
        return WebFixture.getAt(base(), pathAndQuery);
    }

    /** A synthetic run of {@code name} by {@code user}, started as {@code command} on YARN. */
    static AppSnapshot run(String appId, String name, String user, String command, long start, long durationMs) {
        return SnapshotBuilder.synthetic(SnapshotBuilder.syntheticSpec(appId, name, user, start, durationMs)
                .withConf("spark.master", "yarn").withConf("sun.java.command", command));
    }

    static String jobKey(String name, String user, String command) {
        return JobKey.of(name, user, Map.of("spark.master", "yarn"), Map.of("sun.java.command", command)).value();
    }

    private static void fill(DataSource ds) {
        WebFixture.write(ds, SnapshotBuilder.failingStageCancelsOthers("app-diag", "sessions", "ann",
                NOW - 3 * 3600_000L));
        try {
            SnapshotWriter w = new SnapshotWriter();
            for (int i = 0; i < 3; i++) {
                w.write(ds, SnapshotBuilder.synthetic(SnapshotBuilder.syntheticSpec("app-cheap-" + i, "cheap " + i,
                        "erin", NOW - 30 * DAY - i, 60_000)), List.of(finding("SerializerConfig", Severity.LOW,
                        1_000)));
            }
            w.write(ds, SnapshotBuilder.synthetic(SnapshotBuilder.syntheticSpec("app-costly", "costly", "erin",
                    NOW - 31 * DAY, 3_600_000)), List.of(finding("StageSkew", Severity.HIGH, 600_000)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        IngestService ingest = IngestService.builder(ds).heuristics(s -> List.of()).build();
        long t = NOW - 20 * DAY;
        long[] alice = {600_000, 620_000, 580_000, 610_000, 1_500_000};
        for (int i = 0; i < alice.length; i++) {
            store(ingest, run("app-etl-alice-" + i, "etl", "alice", ALICE_ETL, t + i * DAY, alice[i]));
        }
        store(ingest, run("app-etl-bob-0", "etl", "bob", BOB_ETL, t + 2 * DAY + 3_600_000, 6_000_000));
        store(ingest, run("app-etl-bob-1", "etl", "bob", BOB_ETL, t + 3 * DAY + 3_600_000, 6_200_000));
        long[] shells = {300_000, 320_000, 310_000, 9_000_000};
        for (int i = 0; i < shells.length; i++) {
            store(ingest, run("app-shell-" + i, "Spark shell", "user" + i, SHELL, t + i * DAY + 7_200_000, shells[i]));
        }
    }

    private static void store(IngestService ingest, AppSnapshot s) {
        IngestResult r = ingest.ingest(s);
        if (r.outcome() != IngestResult.Outcome.WRITTEN) {
            throw new IllegalStateException(s.appId() + ": " + r.outcome() + " " + r.reason());
        }
    }

    private static Finding finding(String heuristic, Severity severity, long wallMs) {
        return Finding.builder(heuristic, severity).title(heuristic + " title").message("m")
                .impact(new Impact(wallMs, wallMs * 4, "test estimate")).build();
    }
}
