package io.sparkscope.store;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.ingest.IngestResult;
import io.sparkscope.store.ingest.IngestResult.Outcome;
import io.sparkscope.store.ingest.IngestService;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@link IngestService} reports for each way a snapshot can fare, on a real PostgreSQL. */
class IngestServiceTest {
    static DataSource ds;

    @BeforeAll
    static void database() throws Exception {
        ds = TestDb.migrated();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    + " IF NEW.app_id = 'app-refused' THEN RAISE EXCEPTION 'app-refused is refused on purpose';"
                    + " END IF; RETURN NEW; END $$");
            st.execute("CREATE TRIGGER refuse BEFORE INSERT ON application FOR EACH ROW EXECUTE FUNCTION refuse()");
        }
    }

    private static final List<Finding> HEURISTIC_FINDINGS = List.of(
            Finding.builder("Skew", Severity.HIGH).location("1.1").title("Skewed stage").message("10× the median")
                    .build());

    private static AppSnapshot withEvents(AppSnapshot s, long events) {
        return SnapshotBuilder.copy(s).eventCount(events).build();
    }

    @Test
    void writtenThenUnchangedThenStaleAndTheHookOnlyForAChangedCompleteRun() {
        List<String> notified = new CopyOnWriteArrayList<>();
        IngestService ingest = IngestService.builder(ds).heuristics(s -> HEURISTIC_FINDINGS)
                .onWritten((s, f) -> notified.add(s.appId() + ":" + f.size())).build();
        AppSnapshot running = SnapshotBuilder.rich("app-ingest", null, false);
        AppSnapshot complete = SnapshotBuilder.rich("app-ingest", null, true);

        IngestResult r = ingest.ingest(running);
        assertEquals(Outcome.WRITTEN, r.outcome());
        assertTrue(notified.isEmpty(), "a running snapshot is not notified");

        r = ingest.ingest(complete);
        assertEquals(Outcome.WRITTEN, r.outcome());
        assertEquals(HEURISTIC_FINDINGS, r.findings());
        assertTrue(r.stored() && r.regression().isEmpty() && r.reason() == null);
        assertEquals(List.of("app-ingest:1"), notified);

        r = ingest.ingest(complete);
        assertEquals(Outcome.UNCHANGED, r.outcome());
        assertEquals(List.of("app-ingest:1"), notified, "importing the same run twice notifies once");

        r = ingest.ingest(running);
        assertEquals(Outcome.SKIPPED_STALE, r.outcome());
        assertTrue(r.stored(), "the application is stored, in a newer form");
        assertEquals(1, TestDb.count(ds, "select count(*) from finding f join application a using (app_pk)"
                + " where a.app_id = 'app-ingest'"));
    }

    @Test
    void aCompleteSnapshotReplacesARunningOneWithMoreEventsOnlyWhenAsked() {
        AppSnapshot running = withEvents(SnapshotBuilder.rich("app-fetched", null, false), 9_000);
        AppSnapshot complete = SnapshotBuilder.rich("app-fetched", null, true);
        IngestService newerOnly = IngestService.builder(ds).heuristics(s -> List.of()).build();
        IngestService completeWins = IngestService.builder(ds).heuristics(s -> List.of())
                .replace(IngestService.Replace.COMPLETE_OVER_RUNNING).build();

        assertEquals(Outcome.WRITTEN, newerOnly.ingest(running).outcome());
        assertEquals(Outcome.SKIPPED_STALE, newerOnly.ingest(complete).outcome());
        assertEquals(Outcome.WRITTEN, completeWins.ingest(complete).outcome());
        assertEquals(Outcome.SKIPPED_STALE, completeWins.ingest(withEvents(complete, 400)).outcome(),
                "a complete copy with fewer events never replaces a complete one");
        assertEquals(1, TestDb.count(ds, "select count(*) from application where app_id = 'app-fetched'"
                + " and complete and event_count = 500"));
    }

    @Test
    void aRefusedApplicationFailsWithTheDatabasesReasonAndAnAbsentDatabaseIsUnavailable() {
        IngestService ingest = IngestService.builder(ds).heuristics(s -> HEURISTIC_FINDINGS).build();
        IngestResult refused = ingest.ingest(SnapshotBuilder.rich("app-refused", null, true));
        assertEquals(Outcome.FAILED, refused.outcome());
        assertFalse(refused.stored() || refused.databaseUnavailable());
        assertEquals("ERROR: app-refused is refused on purpose", refused.reason());

        PGSimpleDataSource nowhere = new PGSimpleDataSource();
        nowhere.setURL("jdbc:postgresql://127.0.0.1:1/none?connectTimeout=1");
        IngestResult lost = IngestService.builder(nowhere).heuristics(s -> List.of()).build()
                .ingest(SnapshotBuilder.rich("app-nowhere", null, true));
        assertEquals(Outcome.DATABASE_UNAVAILABLE, lost.outcome());
        assertTrue(lost.reason().contains("127.0.0.1:1"), lost.reason());
    }

    @Test
    void withoutHeuristicsOnlyPrecomputedFindingsCanBeStored() {
        IngestService ingest = IngestService.builder(ds).build();
        assertThrows(IllegalStateException.class, () -> ingest.ingest(SnapshotBuilder.rich("app-pre", null, true)));
        IngestResult r = ingest.ingest(SnapshotBuilder.rich("app-pre", null, true), HEURISTIC_FINDINGS);
        assertEquals(Outcome.WRITTEN, r.outcome());
        assertNull(r.reason());
        assertThrows(IllegalArgumentException.class, () -> IngestService.builder(ds).regressionFactor(0.9));
    }
}
