package io.sparkscope.ingest.fetch;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.server.cli.CliRun;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.redact.Redactor;
import io.sparkscope.store.FetchState;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code sparkscope fetch} against Spark's own History Server, started in this JVM on event logs the test writes
 * with real local-mode Spark applications; the same logs imported directly are the reference.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FetchFromHistoryServerTest {
    private static Path logDir;
    private static SparkHistory shs;
    private static String mixedId;
    private static String smallId;
    /** The same event logs through {@code sparkscope import}. */
    private static DataSource imported;

    @BeforeAll
    static void writeLogsAndStartHistoryServer() throws Exception {
        logDir = Files.createTempDirectory("sparkscope-shs-");
        mixedId = SparkHistory.runApp(logDir, "fetch-mixed", SparkHistory::mixedWorkload);
        smallId = SparkHistory.runApp(logDir, "fetch-small", SparkHistory::smallWorkload);
        shs = SparkHistory.start(logDir);
        shs.awaitCompleted(2);
        String db = TestDb.newDatabaseName();
        CliRun imp = CliRun.of("import", logDir.toString(), "--db", TestDb.url(db));
        assertEquals(0, imp.exitCode(), imp.err());
        imported = TestDb.dataSource(db);
    }

    @AfterAll
    static void stop() throws Exception {
        if (shs != null) {
            shs.close();
        }
        if (logDir != null) {
            try (Stream<Path> walk = Files.walk(logDir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static CliRun fetch(String db, String... more) {
        List<String> args = new ArrayList<>(List.of("fetch", "--history-server", shs.url, "--db", TestDb.url(db)));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    private static AppSnapshot read(DataSource ds, String appId) throws Exception {
        return SnapshotReader.read(ds, appId, null).orElseThrow(() -> new AssertionError(appId + " not stored"));
    }

    @Test
    @Order(1)
    void restApiGivesWhatImportGivesWhereItCarriesIt() throws Exception {
        String db = TestDb.newDatabaseName();
        CliRun run = fetch(db, "--source", "rest");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("fetched 2 application(s), 0 already stored, 0 failed"), run.err());
        assertTrue(run.err().contains("[2/2] "), "progress per application on stderr: " + run.err());
        assertTrue(run.err().contains("via REST API: stored"), run.err());
        DataSource ds = TestDb.dataSource(db);
        for (String id : List.of(mixedId, smallId)) {
            assertAgree(withoutRestGaps(read(imported, id)), read(ds, id));
        }

        // The comparison covers the interesting cases, not just empty lists.
        AppSnapshot mixed = read(ds, mixedId);
        assertEquals(Redactor.REDACTED, mixed.config().sparkProperties().get("spark.sparkscope.test.password"));
        // A multi-line exception message: cut to its first line and marked, as the event-log reader does.
        assertTrue(mixed.stages().stream().flatMap(s -> s.keptTasks().stream()).anyMatch(t ->
                "FAILED".equals(t.status()) && "ExceptionFailure".equals(t.endReason())
                        && "java.lang.IllegalArgumentException: bad record 3 …".equals(t.errorMessage())));
        assertTrue(mixed.stages().stream().anyMatch(s -> s.numCompleteTasks() > 0 && s.numFailedTasks() > 0
                && s.endReasons().containsKey("ExceptionFailure")), "a stage with failed and successful tasks");
        StageSummary hopeless = mixed.stages().stream().filter(s -> s.numCompleteTasks() == 0 && s.numFailedTasks() > 0)
                .findFirst().orElseThrow();
        assertNull(hopeless.taskSummary(), "no successful task, no quantiles");
        assertTrue(mixed.stages().stream().anyMatch(s -> s.status() == StageSummary.StageStatus.SKIPPED));
        JobSummary grouped = mixed.jobs().stream().filter(j -> "nightly".equals(j.jobGroup())).findFirst().orElseThrow();
        assertEquals("doubles the numbers", grouped.description());
        assertTrue(mixed.jobs().stream().anyMatch(j -> j.sqlExecutionId() >= 0), "SQL jobs linked to their execution");
        assertEquals(1, mixed.executors().size());
        assertTrue(mixed.executors().get(0).totalRunTime() > 0, "one executor ran every task: its run time is known");
        assertFalse(new SnapshotReader(ds).findings(mixedId, null).isEmpty(), "findings computed as import does");
    }

    /**
     * The imported snapshot with the fields the REST API does not carry set as the REST path leaves them. Everything
     * else must be equal. Differences by nature:
     * <ul>
     *   <li>stage {@code parentIds}: not in Spark's {@code StageData};</li>
     *   <li>job {@code failureReason}: not in {@code JobData};</li>
     *   <li>SQL plan tree, metric values and error message: {@code /sql} gives formatted text only;</li>
     *   <li>{@code eventCount}, unknown event types and the last event time: there are no events (the last event
     *       time is taken as the end time; an event can come a few ms after the application's end).</li>
     * </ul>
     * Peak executor metrics: see {@link #withoutPeaks}. Equal here only because of this test's shape (the README
     * says when they differ): executor run/CPU/GC time (one executor ran every task), kept tasks and last task finish
     * time (every stage has fewer tasks than are kept).
     */
    static AppSnapshot withoutRestGaps(AppSnapshot s) {
        List<JobSummary> jobs = s.jobs().stream().map(j -> JobSummary.builder().jobId(j.jobId()).name(j.name())
                .description(j.description()).jobGroup(j.jobGroup()).submissionTime(j.submissionTime())
                .completionTime(j.completionTime()).status(j.status()).stageIds(j.stageIds())
                .sqlExecutionId(j.sqlExecutionId()).numTasks(j.numTasks()).numCompletedTasks(j.numCompletedTasks())
                .numFailedTasks(j.numFailedTasks()).numKilledTasks(j.numKilledTasks())
                .numSkippedStages(j.numSkippedStages()).build()).toList();
        List<StageSummary> stages = s.stages().stream().map(st -> StageSummary.builder().stageId(st.stageId())
                .attemptId(st.attemptId()).name(st.name()).details(st.details()).status(st.status())
                .numTasks(st.numTasks()).numActiveTasks(st.numActiveTasks()).numCompleteTasks(st.numCompleteTasks())
                .numFailedTasks(st.numFailedTasks()).numKilledTasks(st.numKilledTasks())
                .numCompletedIndices(st.numCompletedIndices()).submissionTime(st.submissionTime())
                .completionTime(st.completionTime()).firstTaskLaunchedTime(st.firstTaskLaunchedTime())
                .lastTaskFinishedTime(st.lastTaskFinishedTime()).failureReason(st.failureReason()).jobIds(st.jobIds())
                .totals(st.totals()).taskSummary(st.taskSummary()).keptTasks(st.keptTasks())
                .endReasons(st.endReasons()).build()).toList();
        List<SqlExecutionSummary> sql = s.sqlExecutions().stream().map(q -> SqlExecutionSummary.builder()
                .executionId(q.executionId()).description(q.description()).startTime(q.startTime())
                .endTime(q.endTime()).physicalPlanDescription(q.physicalPlanDescription()).jobIds(q.jobIds())
                .build()).toList();
        return AppSnapshot.builder().appId(s.appId()).attemptId(s.attemptId()).appName(s.appName())
                .sparkUser(s.sparkUser()).sparkVersion(s.sparkVersion()).startTime(s.startTime()).endTime(s.endTime())
                .lastEventTime(s.endTime()).complete(s.complete()).config(s.config()).executors(s.executors())
                .jobs(jobs).stages(stages).sqlExecutions(sql).driverGcTimeMs(s.driverGcTimeMs())
                .driverMaxMemory(s.driverMaxMemory()).build();
    }

    /**
     * Peak executor metrics (and the driver GC time read from them) differ by nature, both ways round: Spark's
     * History Server folds the executor metrics of every task end into the peaks, the recorder reads only the
     * stage-executor-metrics events. Compared apart from the rest.
     */
    static AppSnapshot withoutPeaks(AppSnapshot s) {
        List<ExecutorSummary> executors = s.executors().stream().map(SnapshotBuilder::basicExecutor).toList();
        return AppSnapshot.builder().appId(s.appId()).attemptId(s.attemptId()).appName(s.appName())
                .sparkUser(s.sparkUser()).sparkVersion(s.sparkVersion()).startTime(s.startTime()).endTime(s.endTime())
                .lastEventTime(s.lastEventTime()).complete(s.complete()).config(s.config()).executors(executors)
                .jobs(s.jobs()).stages(s.stages()).sqlExecutions(s.sqlExecutions())
                .driverMaxMemory(s.driverMaxMemory()).eventCount(s.eventCount())
                .unknownEventTypes(s.unknownEventTypes()).build();
    }

    /** Part by part first, so a failure names what differs. */
    private static void assertAgree(AppSnapshot expectedWithPeaks, AppSnapshot actualWithPeaks) {
        AppSnapshot expected = withoutPeaks(expectedWithPeaks);
        AppSnapshot actual = withoutPeaks(actualWithPeaks);
        String id = expected.appId();
        assertEquals(List.of(expected.appName(), expected.sparkUser(), expected.sparkVersion(), expected.startTime(),
                        expected.endTime(), expected.lastEventTime(), expected.complete(), expected.driverGcTimeMs(),
                        expected.driverMaxMemory()),
                List.of(actual.appName(), actual.sparkUser(), actual.sparkVersion(), actual.startTime(),
                        actual.endTime(), actual.lastEventTime(), actual.complete(), actual.driverGcTimeMs(),
                        actual.driverMaxMemory()), id + " header");
        assertEquals(expected.config(), actual.config(), id + " config");
        assertEquals(expected.executors(), actual.executors(), id + " executors");
        assertEquals(expected.jobs(), actual.jobs(), id + " jobs");
        assertEquals(expected.stages().size(), actual.stages().size(), id + " stage attempts");
        for (int i = 0; i < expected.stages().size(); i++) {
            StageSummary e = expected.stages().get(i);
            StageSummary a = actual.stages().get(i);
            String where = id + " stage " + e.key();
            assertEquals(e.totals(), a.totals(), where + " totals");
            if (e.taskSummary() != null && a.taskSummary() != null) {
                for (DistributionMetric m : DistributionMetric.values()) {
                    assertEquals(Arrays.toString(e.taskSummary().values(m)),
                            Arrays.toString(a.taskSummary().values(m)), where + " quantiles of " + m.path);
                }
            }
            assertEquals(e.taskSummary(), a.taskSummary(), where + " task quantiles");
            assertEquals(e.keptTasks(), a.keptTasks(), where + " kept tasks");
            assertEquals(e.endReasons(), a.endReasons(), where + " end reasons");
            assertEquals(e, a, where);
        }
        assertEquals(expected.sqlExecutions(), actual.sqlExecutions(), id + " SQL executions");
        assertEquals(expected, actual, id);
    }

    @Test
    @Order(2)
    void eventLogsGiveExactlyWhatImportGives() throws Exception {
        String db = TestDb.newDatabaseName();
        CliRun run = fetch(db, "--source", "logs", "--threads", "2");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("via event logs: stored"), run.err());
        DataSource ds = TestDb.dataSource(db);
        for (String id : List.of(mixedId, smallId)) {
            assertEquals(read(imported, id), read(ds, id), id);
            assertEquals(headlines(new SnapshotReader(imported).findings(id, null)),
                    headlines(new SnapshotReader(ds).findings(id, null)), id + " findings");
        }
    }

    private static List<String> headlines(List<Finding> findings) {
        return findings.stream().map(f -> f.heuristic() + ": " + f.title()).sorted().toList();
    }

    @Test
    @Order(3)
    void secondRunFetchesNothingAndChangesNothing() throws Exception {
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        CliRun first = fetch(db);
        assertEquals(0, first.exitCode(), first.err());
        assertTrue(first.err().contains("fetched 2 application(s)"), first.err());
        long newest = Math.max(read(imported, mixedId).endTime(), read(imported, smallId).endTime());
        assertEquals(newest, FetchState.newestEndTime(ds, shs.url).orElseThrow(), "newest end time remembered");
        Map<String, String> before = checksums(ds);

        CliRun second = fetch(db);
        assertEquals(0, second.exitCode(), second.err());
        assertTrue(second.err().contains("2 already stored, 0 to fetch"), second.err());
        assertTrue(second.err().contains("fetched 0 application(s), 2 already stored, 0 failed"), second.err());
        assertEquals(before, checksums(ds));

        // Fetching everything again rewrites nothing either: every write is an upsert of the same rows.
        CliRun again = fetch(db, "--refetch", "--since", "2000-01-01");
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(again.err().contains("fetched 2 application(s)"), again.err());
        assertEquals(before, checksums(ds));
    }

    /** Row count and a checksum of every row of every table: equal means nothing was added, lost or changed. */
    static Map<String, String> checksums(DataSource ds) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            for (String table : List.of("application", "configuration", "executor", "job", "stage_attempt",
                    "stage_statistics", "task", "sql_execution", "finding", "fetch_state")) {
                try (ResultSet rs = st.executeQuery("SELECT count(*) || ' rows, md5 ' || md5(coalesce(string_agg("
                        + "t::text, '|' ORDER BY t::text), '')) FROM " + table + " t")) { // our table names
                    rs.next();
                    out.put(table, rs.getString(1));
                }
            }
        }
        return out;
    }

    @Test
    @Order(4)
    void oneFailingApplicationIsReportedAndFetchedByTheNextRun() throws Exception {
        String failingPath = "/api/v1/applications/" + mixedId + "/stages";
        try (FaultProxy proxy = new FaultProxy(shs.url, p -> p.startsWith(failingPath) ? 500 : 0)) {
            String db = TestDb.newDatabaseName();
            DataSource ds = TestDb.dataSource(db);
            CliRun run = CliRun.of("fetch", "--history-server", proxy.url(), "--db", TestDb.url(db),
                    "--source", "rest", "--retries", "1", "--retry-backoff-ms", "10");
            assertEquals(1, run.exitCode(), run.err());
            assertTrue(run.err().contains(smallId + ": via REST API: stored"), run.err());
            assertTrue(run.err().contains("failed: " + mixedId + ": " + proxy.url() + failingPath),
                    run.err());
            assertTrue(run.err().contains("answered 500 Internal Server Error: injected failure (after 2 attempts)"),
                    run.err());
            assertTrue(run.err().contains("fetched 1 application(s), 0 already stored, 1 failed"), run.err());
            assertEquals(1, TestDb.count(ds, "select count(*) from application"));
            long mixedEnd = read(imported, mixedId).endTime();
            assertTrue(FetchState.newestEndTime(ds, proxy.url()).orElseThrow() < mixedEnd,
                    "the remembered end time stays before the failed application");

            proxy.failing(p -> 0);
            CliRun next = CliRun.of("fetch", "--history-server", proxy.url(), "--db", TestDb.url(db),
                    "--source", "rest");
            assertEquals(0, next.exitCode(), next.err());
            assertTrue(next.err().contains("1 already stored, 1 to fetch"), next.err());
            assertTrue(next.err().contains(mixedId + ": via REST API: stored"), next.err());
            assertEquals(2, TestDb.count(ds, "select count(*) from application"));
        }
    }

    @Test
    @Order(5)
    void refusedEventLogsFallBackToTheRestApi() throws Exception {
        try (FaultProxy proxy = new FaultProxy(shs.url, p -> p.endsWith("/logs") ? 403 : 0)) {
            String db = TestDb.newDatabaseName();
            CliRun run = CliRun.of("fetch", "--history-server", proxy.url(), "--db", TestDb.url(db));
            assertEquals(0, run.exitCode(), run.err());
            assertTrue(run.err().contains("via REST API (event logs refused: 403): stored"), run.err());
            assertEquals(2, proxy.injected.get());
            assertEquals(2, TestDb.count(TestDb.dataSource(db), "select count(*) from application"));
        }
    }

    @Test
    @Order(6)
    void unreachableHistoryServerIsOneLine() {
        String db = TestDb.newDatabaseName();
        CliRun run = CliRun.of("fetch", "--history-server", "http://127.0.0.1:1", "--db", TestDb.url(db),
                "--retries", "1", "--retry-backoff-ms", "10");
        assertEquals(2, run.exitCode(), run.err());
        List<String> ours = run.err().lines().filter(l -> l.startsWith("sparkscope fetch:")).toList();
        assertEquals(List.of("sparkscope fetch: cannot reach "
                + "http://127.0.0.1:1/api/v1/applications?status=completed: connection refused (after 2 attempts)"),
                ours, run.err());
        assertFalse(run.err().contains("\tat io.sparkscope"), run.err());
    }

    @Test
    @Order(7)
    void wrongAddressNamesTheUrl() {
        String db = TestDb.newDatabaseName();
        CliRun run = CliRun.of("fetch", "--history-server", shs.url + "/nothing-here", "--db",
                TestDb.url(db));
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("sparkscope fetch: " + shs.url
                + "/nothing-here/api/v1/applications?status=completed answered "), run.err());
        assertTrue(run.err().contains("is this a History Server address?"), run.err());
        CliRun bad = CliRun.of("fetch", "--history-server", "shs:18080", "--db", TestDb.url(db));
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().startsWith("sparkscope fetch: --history-server: expected an http:// or https:// URL"),
                bad.err());
    }

    @Test
    @Order(99) // adds a log to the shared directory: last
    void aNewApplicationIsFetchedByTheNextRun() throws Exception {
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        CliRun first = fetch(db);
        assertEquals(0, first.exitCode(), first.err());
        assertEquals(2, TestDb.count(ds, "select count(*) from application"));

        String lateId = SparkHistory.runApp(logDir, "fetch-late", SparkHistory::smallWorkload);
        shs.awaitCompleted(3);
        CliRun next = fetch(db);
        assertEquals(0, next.exitCode(), next.err());
        assertTrue(next.err().contains("1 to fetch"), next.err());
        assertTrue(next.err().contains("[1/1] " + lateId + ": via event logs: stored"), next.err());
        assertEquals(3, TestDb.count(ds, "select count(*) from application"));
        assertEquals(read(ds, lateId).endTime(), FetchState.newestEndTime(ds, shs.url).orElseThrow());
    }
}
