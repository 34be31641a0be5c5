package io.sparkscope.store;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SnapshotBuilder;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Schema V5: application.completed_at (trigger) and the notification claims behind {@code serve --webhook-url}. */
class NotificationsTest {
    private static final String URL = "https://hooks.example.com/services/T000/B000/s3cret";
    private static final Finding HIGH = new Finding("fail:job", "JobFailure", Severity.HIGH, "A job failed",
            "job 3 failed", null, List.of(), List.of(), List.of(), null);
    private static final Finding LOW = new Finding("gc:app", "ExecutorGc", Severity.LOW, "GC", "12 %", null,
            List.of(), List.of(), List.of(), null);
    private static final Finding REGRESSION = new Finding("regression", "Regression", Severity.LOW,
            "Slower than its previous runs", "1.6× the median", null, List.of(), List.of(), List.of(), null);

    private final SnapshotWriter writer = new SnapshotWriter();

    private void write(DataSource ds, String appId, boolean complete, Finding... findings) throws Exception {
        writer.overwrite(ds, SnapshotBuilder.rich(appId, null, complete), List.of(findings));
    }

    private static OffsetDateTime column(DataSource ds, String column, String appId) throws Exception {
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT " + column + " FROM application WHERE app_id = ?")) {
            ps.setString(1, appId);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), appId);
                return rs.getObject(1, OffsetDateTime.class);
            }
        }
    }

    private static Set<String> ids(List<Notifications.Due> due) {
        return due.stream().map(Notifications.Due::appId).collect(Collectors.toSet());
    }

    @Test
    void completedAtIsStampedOnceWhenTheApplicationFirstCompletes() throws Exception {
        DataSource ds = TestDb.migrated();
        write(ds, "app-t", false, HIGH);
        assertNull(column(ds, "completed_at", "app-t"), "running: not completed");
        write(ds, "app-t", true, HIGH);
        OffsetDateTime first = column(ds, "completed_at", "app-t");
        assertNotNull(first);
        Thread.sleep(20);
        // A rewrite (late events, reanalyze) changes the row but not when it completed.
        write(ds, "app-t", true, HIGH, LOW);
        assertEquals(first, column(ds, "completed_at", "app-t"));
        assertTrue(column(ds, "updated_at", "app-t").isAfter(first), "the rewrite did change the row");
    }

    @Test
    void eachWorthyCompletedApplicationIsClaimedOncePerTargetAcrossServers() throws Exception {
        DataSource ds = TestDb.migrated();
        Notifications a = new Notifications(ds, URL, "server-a");
        Notifications b = new Notifications(ds, URL, "server-b");
        Instant since = a.now();
        write(ds, "app-high", true, HIGH, LOW);
        write(ds, "app-regression", true, REGRESSION);
        write(ds, "app-low", true, LOW);
        write(ds, "app-green", true);
        write(ds, "app-running", false, HIGH);

        List<Notifications.Due> claimed = a.claimNew(since, Duration.ZERO, 100);
        assertEquals(Set.of("app-high", "app-regression"), ids(claimed));
        Notifications.Due high = claimed.stream().filter(d -> d.appId().equals("app-high")).findFirst().orElseThrow();
        assertEquals(List.of("JobFailure", "ExecutorGc"), high.findings().stream().map(Finding::heuristic).toList());
        assertTrue(high.complete());
        assertEquals(1, high.rounds());

        assertTrue(b.claimNew(since, Duration.ZERO, 100).isEmpty(), "another server finds them claimed");
        assertTrue(a.claimNew(since, Duration.ZERO, 100).isEmpty(), "and so does the same one");
        // Another webhook URL is another target: notified on its own.
        assertEquals(2, new Notifications(ds, URL + "-2", "server-a").claimNew(since, Duration.ZERO, 100).size());

        assertFalse(b.markSent(high.appPk()), "only the claimer settles a claim");
        assertTrue(a.markSent(high.appPk()));
        assertEquals(0, TestDb.count(ds, "SELECT count(*) FROM notification WHERE target LIKE '%hooks%'"),
                "the URL (with its secret) is not stored");
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM notification WHERE state = 'SENT' AND target = '"
                + Notifications.target(URL) + "'"));
    }

    @Test
    void applicationsCompletedBeforeTheStartOrStillChangingWait() throws Exception {
        DataSource ds = TestDb.migrated();
        Notifications n = new Notifications(ds, URL, "server-a");
        write(ds, "app-old", true, HIGH);
        Thread.sleep(5);
        Instant since = n.now();
        assertTrue(n.claimNew(since, Duration.ZERO, 100).isEmpty(), "an application that completed before is not sent");
        write(ds, "app-new", true, HIGH);
        assertTrue(n.claimNew(since, Duration.ofHours(1), 100).isEmpty(), "not settled yet");
        assertEquals(Set.of("app-new"), ids(n.claimNew(since, Duration.ZERO, 100)));
        assertEquals(Set.of("app-old"), ids(new Notifications(ds, URL, "x").claimNew(since.minusSeconds(3600),
                Duration.ZERO, 100)), "an earlier start (--webhook-since) reaches it");
    }

    @Test
    void failedAndStaleClaimsAreTakenAgainUpToTheRoundLimit() throws Exception {
        DataSource ds = TestDb.migrated();
        Notifications a = new Notifications(ds, URL, "server-a");
        Notifications b = new Notifications(ds, URL, "server-b");
        Instant since = a.now();
        write(ds, "app-high", true, HIGH);
        long pk = a.claimNew(since, Duration.ZERO, 10).get(0).appPk();

        assertTrue(b.claimRetries(Duration.ofHours(1), 3, 10).isEmpty(), "a fresh claim is not taken over");
        assertTrue(a.markFailed(pk, Duration.ofHours(1), "HTTP 500"));
        assertTrue(b.claimRetries(Duration.ofHours(1), 3, 10).isEmpty(), "not due yet");
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "UPDATE notification SET next_attempt_at = now() - interval '1 second'")) { // an hour later
            ps.executeUpdate();
        }
        List<Notifications.Due> retry = b.claimRetries(Duration.ofHours(1), 3, 10);
        assertEquals(1, retry.size(), "a due failure is claimed again");
        assertEquals(2, retry.get(0).rounds());
        assertEquals(1, TestDb.count(ds, "SELECT count(*) FROM notification WHERE last_error = 'HTTP 500'"
                + " AND claimed_by = 'server-b' AND state = 'CLAIMED'"));

        // server-b dies before sending: its claim goes stale and is taken over after the lease.
        assertTrue(a.claimRetries(Duration.ofHours(1), 3, 10).isEmpty());
        assertEquals(3, a.claimRetries(Duration.ZERO, 3, 10).get(0).rounds());
        assertTrue(a.markFailed(pk, Duration.ZERO, "timeout"));
        assertTrue(a.claimRetries(Duration.ZERO, 3, 10).isEmpty(), "three rounds is the limit");
    }

    @Test
    void migratingAnExistingDatabaseDatesItsCompletedApplications() throws Exception {
        DataSource ds = TestDb.newDatabase();
        Flyway.configure().dataSource(ds).locations(SchemaManager.LOCATION).table(SchemaManager.HISTORY_TABLE)
                .target("3").load().migrate();
        // Rows as a version-3 writer left them (today's writer needs columns of later migrations).
        insertV3(ds, "app-before-v5", true);
        insertV3(ds, "app-running-before-v5", false);
        assertEquals(SchemaStatus.State.CURRENT, SchemaManager.migrate(ds).state());
        assertEquals(column(ds, "updated_at", "app-before-v5"), column(ds, "completed_at", "app-before-v5"));
        assertNull(column(ds, "completed_at", "app-running-before-v5"));
        Notifications n = new Notifications(ds, URL, "server-a");
        assertTrue(n.claimNew(n.now(), Duration.ZERO, 10).isEmpty(), "no notification storm after the upgrade");
    }

    /** An application row with a HIGH finding, in the version-3 schema. */
    private static void insertV3(DataSource ds, String appId, boolean complete) throws Exception {
        try (java.sql.Connection c = ds.getConnection()) {
            long pk;
            try (java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO application (app_id, name, start_time,"
                    + " end_time, last_event_time, duration_ms, status, complete, num_jobs, num_failed_jobs, num_stages,"
                    + " num_failed_stages, num_tasks, num_failed_tasks, num_executors, total_task_time_ms,"
                    + " total_run_time_ms, total_cpu_time_ns, total_gc_time_ms, memory_bytes_spilled,"
                    + " disk_bytes_spilled, shuffle_read_bytes, shuffle_write_bytes, input_bytes, output_bytes,"
                    + " driver_gc_time_ms, driver_max_memory, event_count, num_findings, worst_severity)"
                    + " VALUES (?, 'v3 app', 1000, ?, 2000, 1000, ?, ?, 1, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,"
                    + " 0, 0, 0, 0, 10, 1, 'HIGH') RETURNING app_pk")) {
                ps.setString(1, appId);
                ps.setLong(2, complete ? 2000 : -1);
                ps.setString(3, complete ? "COMPLETE" : "RUNNING");
                ps.setBoolean(4, complete);
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    pk = rs.getLong(1);
                }
            }
            try (java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO finding (app_pk, finding_id, ord,"
                    + " heuristic, severity, title, message, stage_ids, executor_ids, config_keys)"
                    + " VALUES (?, ?, 0, ?, 'HIGH', ?, ?, '{}', '{}', '{}')")) {
                ps.setLong(1, pk);
                ps.setString(2, HIGH.id());
                ps.setString(3, HIGH.heuristic());
                ps.setString(4, HIGH.title());
                ps.setString(5, HIGH.message());
                ps.executeUpdate();
            }
        }
    }
}
