package io.sparkscope.server.cli;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.analysis.prediction.RegressionCheck;
import io.sparkscope.core.analysis.prediction.RunChanges;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Re-importing is a no-op for findings too, and the Regression finding does not depend on the order runs arrive in:
 * the same runs imported oldest first, newest first and shuffled give identical findings, each run compared with the
 * last 10 runs of its name that started before it (checked against the check run by hand here), and importing
 * again changes nothing.
 */
class RegressionOrderTest {
    private static final long DAY = 86_400_000L;
    private static final long T0 = 1_764_400_000_000L;

    /** Every stored finding of every application, in a comparable form: app id → rows in finding order. */
    private static Map<String, List<String>> findings(DataSource ds) throws Exception {
        Map<String, List<String>> out = new TreeMap<>();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("select a.app_id, f.ord, f.finding_id, f.heuristic, f.severity, f.title,"
                     + " f.message, f.recommendation, f.details::text, a.num_findings, a.worst_severity, a.banners::text"
                     + " from application a left join finding f using (app_pk) order by a.app_id, f.ord")) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 2; i <= 12; i++) {
                    row.add(rs.getString(i));
                }
                out.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(String.join(" | ", row));
            }
        }
        return out;
    }

    private static Map<String, String> regressions(DataSource ds) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("select a.app_id, f.severity, f.message from finding f join application a"
                     + " using (app_pk) where f.heuristic = 'Regression'")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2) + " " + rs.getString(3));
            }
        }
        return out;
    }

    private static CliRun importInOrder(String db, List<Path> logs) {
        List<String> args = new ArrayList<>(List.of("import"));
        logs.forEach(p -> args.add(p.toString()));
        args.addAll(List.of("--db", TestDb.url(db)));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    void theSameRunsInAnyOrderGiveTheSameFindingsAndImportingAgainChangesNothing(@TempDir Path dir)
            throws Exception {
        // 14 nightly runs (more than the 10 a run is compared with), two of them starting at the same millisecond,
        // with durations that make some runs regressions against some sets of predecessors and not others.
        Random random = new Random(11);
        List<Path> logs = new ArrayList<>();
        List<AppSnapshot> runs = new ArrayList<>();
        for (int i = 0; i < 14; i++) {
            long start = T0 + (i == 9 ? 8 : i) * DAY;
            long duration = i % 4 == 3 ? 25_000 + random.nextInt(10_000) : 9_000 + random.nextInt(6_000);
            Path log = ImportRegressionTest.log(dir, String.format("app-night-%02d", i), start, duration);
            logs.add(log);
            runs.add(EventLogAnalysis.analyze(EventLogReader.discover(log).get(0), RecorderOptions.DEFAULTS,
                    p -> { }).snapshot());
        }
        List<Path> newestFirst = new ArrayList<>(logs);
        Collections.reverse(newestFirst);
        List<Path> shuffled = new ArrayList<>(logs);
        Collections.shuffle(shuffled, new Random(5));

        String oldestFirstDb = TestDb.newDatabaseName();
        CliRun first = importInOrder(oldestFirstDb, logs);
        assertEquals(0, first.exitCode(), first.err());
        Map<String, List<String>> expected = findings(TestDb.dataSource(oldestFirstDb));
        assertEquals(14, expected.size());

        // The reference: each run against the last 10 runs that started strictly before it (ties by app id), and
        // what changed against the newest of them.
        Map<String, String> byHand = new TreeMap<>();
        for (AppSnapshot run : runs) {
            List<AppSnapshot> before = runs.stream()
                    .filter(p -> p.startTime() < run.startTime())
                    .sorted(Comparator.comparingLong(AppSnapshot::startTime).thenComparing(AppSnapshot::appId)
                            .reversed())
                    .limit(10).toList();
            List<RegressionCheck.Run> previous = before.stream().map(RegressionCheck.Run::of).toList();
            Optional<Finding> f = RegressionCheck.judge(RegressionCheck.Run.of(run), previous, 1.5, 2.0)
                    .finding(run.appName(), before.isEmpty() ? null : RunChanges.between(before.get(0), run));
            f.ifPresent(x -> byHand.put(run.appId(), x.severity() + " " + x.message()));
        }
        assertTrue(byHand.size() >= 2, "the data makes regressions: " + byHand);
        assertEquals(byHand, regressions(TestDb.dataSource(oldestFirstDb)));

        for (List<Path> order : List.of(newestFirst, shuffled)) {
            String db = TestDb.newDatabaseName();
            CliRun run = importInOrder(db, order);
            assertEquals(0, run.exitCode(), run.err());
            assertEquals(expected, findings(TestDb.dataSource(db)), "import order " + order);
            assertTrue(order == shuffled || run.err().contains("Regression finding of"),
                    "newest first, older runs update later ones: " + run.err());

            CliRun again = importInOrder(db, logs);
            assertEquals(0, again.exitCode(), again.err());
            assertTrue(again.err().contains("imported 0 application(s), 14 unchanged"), again.err());
            assertEquals(expected, findings(TestDb.dataSource(db)), "import again");
        }
    }
}
