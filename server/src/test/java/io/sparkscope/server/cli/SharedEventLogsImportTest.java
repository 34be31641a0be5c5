package io.sparkscope.server.cli;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.SharedData;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every real Spark event log under {@code ../shared/eventlogs/} (third-party data beside the repository, never
 * copied into it; the test is skipped with a message when it is absent) imported with {@code sparkscope import}
 * into a real PostgreSQL: each import exits 0 and the stored rows count what the recorder's snapshot of the same
 * file holds (jobs, stage attempts, executors, kept tasks, findings).
 *
 * <p>Logs of the same application attempt (a truncated copy, both attempts' directories) go into different
 * databases: each database gets one log per attempt, so every stored application is the snapshot of one file.
 */
class SharedEventLogsImportTest {

    private record Expected(EventLogSource source, AppSnapshot snapshot, int findings) {
        String key() {
            return snapshot.attemptId() == null ? snapshot.appId() : snapshot.appId() + "/" + snapshot.attemptId();
        }
    }

    @Test
    void everySharedLogImportsWithItsCounts() throws Exception {
        Optional<Path> shared = SharedData.eventLogs();
        if (shared.isEmpty()) {
            System.err.println("SharedEventLogsImportTest skipped: ../shared/eventlogs not found (set SPARKSCOPE_SHARED)");
        }
        Assumptions.assumeTrue(shared.isPresent(), "../shared/eventlogs not found (set SPARKSCOPE_SHARED)");

        Diagnoser diagnoser = Diagnoser.defaults();
        List<List<Expected>> rounds = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (EventLogSource source : EventLogReader.discover(shared.get())) {
            EventLogAnalysis.Result r;
            try {
                r = EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS, p -> { });
            } catch (RuntimeException e) {
                problems.add(source.path() + ": the recorder fails: " + e);
                continue;
            }
            if (!r.hasApplication()) {
                problems.add(source.path() + ": no application in it");
                continue;
            }
            Expected e = new Expected(source, r.snapshot(), diagnoser.diagnose(r.snapshot()).size());
            List<Expected> round = rounds.stream().filter(x -> x.stream().noneMatch(y -> y.key().equals(e.key())))
                    .findFirst().orElse(null);
            if (round == null) {
                round = new ArrayList<>();
                rounds.add(round);
            }
            round.add(e);
        }
        int files = rounds.stream().mapToInt(List::size).sum();
        assertTrue(files >= 20, "the shared data holds dozens of logs, found " + files);

        for (List<Expected> round : rounds) {
            String db = TestDb.newDatabaseName();
            List<String> args = new ArrayList<>(List.of("import"));
            round.forEach(e -> args.add(e.source().path().toString()));
            args.addAll(List.of("--db", TestDb.url(db)));
            CliRun run = CliRun.of(args.toArray(String[]::new));
            if (run.exitCode() != 0) {
                run.err().lines().filter(l -> l.contains("not imported") || l.contains("not stored")
                        || l.startsWith("sparkscope")).forEach(l -> problems.add("import: " + l));
            }
            DataSource ds = TestDb.dataSource(db);
            for (Expected e : round) {
                compare(ds, e, problems);
            }
        }
        assertTrue(problems.isEmpty(), problems.size() + " problem(s) in " + files + " shared log(s):\n"
                + String.join("\n", problems));
    }

    private static void compare(DataSource ds, Expected e, List<String> problems) throws Exception {
        AppSnapshot s = e.snapshot();
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("jobs", (long) s.jobs().size());
        expected.put("stage attempts", (long) s.stages().size());
        expected.put("executors", (long) s.executors().size());
        // tasks still running when the log ends are stored too, as Spark lists them (status RUNNING)
        expected.put("task rows", s.stages().stream()
                .mapToLong(st -> st.keptTasks().size() + st.runningTasks().size()).sum());
        expected.put("findings", (long) e.findings());
        Set<Long> stageKeys = new HashSet<>();
        for (StageSummary st : s.stages()) {
            stageKeys.add(((long) st.stageId() << 32) | st.attemptId());
        }
        String attempt = s.attemptId() == null ? "" : s.attemptId();
        String where = " join application a using (app_pk) where a.app_id = ? and a.attempt_id = ?";
        Map<String, String> queries = Map.of(
                "jobs", "select count(*) from job" + where,
                "stage attempts", "select count(*) from stage_attempt" + where,
                "executors", "select count(*) from executor" + where,
                "task rows", "select count(*) from task" + where,
                // the Regression finding depends on the other runs stored beside it, not on this file
                "findings", "select count(*) from finding" + where + " and heuristic <> 'Regression'");
        try (Connection c = ds.getConnection()) {
            if (count(c, "select count(*) from application a where a.app_id = ? and a.attempt_id = ?", s.appId(),
                    attempt) != 1) {
                problems.add(e.source().path() + ": " + e.key() + " not stored");
                return;
            }
            for (Map.Entry<String, Long> x : expected.entrySet()) {
                long stored = count(c, queries.get(x.getKey()), s.appId(), attempt);
                if (!Objects.equals(stored, x.getValue())) {
                    problems.add(e.source().path() + ": " + x.getKey() + " stored " + stored + ", the snapshot has "
                            + x.getValue());
                }
            }
        }
        if (stageKeys.size() != s.stages().size()) {
            problems.add(e.source().path() + ": the snapshot holds a stage attempt twice");
        }
    }

    private static long count(Connection c, String sql, String appId, String attempt) throws Exception {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, appId);
            ps.setString(2, attempt);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
