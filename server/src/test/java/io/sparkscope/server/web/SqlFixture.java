package io.sparkscope.server.web;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.server.web.sql.SqlWorkloads;
import io.sparkscope.store.SnapshotWriter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Two runs of one real Spark SQL application in local mode (joins, aggregates, sorts and windows forced to spill, a
 * description that is markup), their event logs read, diagnosed by the built-in heuristics and stored in a fresh
 * database, served by a web server: what the SQL pages, their API and the browser test read.
 */
final class SqlFixture {
    /** The first query's description, set by {@link SqlWorkloads#queries}. */
    static final String MARKUP_DESCRIPTION = "<b>orders by customer</b> & \"totals\"";

    private static WebServer server;
    private static String base;
    private static final List<AppSnapshot> runs = new ArrayList<>();

    private SqlFixture() {
    }

    static synchronized String base() {
        if (server == null) {
            try {
                Path logs = Files.createTempDirectory("sparkscope-sql-fixture");
                SqlWorkloads.run(logs, "sql nightly", true, SqlWorkloads::queries);
                SqlWorkloads.run(logs, "sql nightly", true, SqlWorkloads::queries);
                var ds = WebFixture.newDatabase();
                List<Path> files;
                try (var list = Files.list(logs)) {
                    files = list.sorted().toList();
                }
                for (Path log : files) {
                    AppSnapshot s = EventLogAnalysis.analyze(EventLogReader.discover(log).get(0),
                            RecorderOptions.DEFAULTS, p -> { }).snapshot();
                    new SnapshotWriter().write(ds, s, Diagnoser.defaults().diagnose(s));
                    runs.add(s);
                }
                runs.sort(java.util.Comparator.comparingLong(AppSnapshot::startTime));
                server = new WebServer(ds, new WebServer.Options(null, null), System::currentTimeMillis);
                base = "http://127.0.0.1:" + server.start("127.0.0.1", 0);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        return base;
    }

    /** The runs, oldest first. */
    static synchronized List<AppSnapshot> runs() {
        base();
        return List.copyOf(runs);
    }

    static WebFixture.Response get(String path) {
        return WebFixture.getAt(base(), path);
    }
}
