package io.sparkscope.ingest.fetch;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.ExampleEventLogs;
import io.sparkscope.store.FetchState;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What fetch remembers in the database (migration V6): forward-only end time, stored complete attempts. */
class FetchStateTest {
    private static final Path SHIPPED = ExampleEventLogs.DIR;

    @Test
    void newestEndTimeOnlyMovesForward() throws Exception {
        DataSource ds = TestDb.migrated();
        assertEquals(OptionalLong.empty(), FetchState.newestEndTime(ds, "http://shs:18080"));
        FetchState.advance(ds, "http://shs:18080", 2000);
        FetchState.advance(ds, "http://shs:18080", 1000); // a slower run finishing later
        FetchState.advance(ds, "http://other:18080", 500);
        assertEquals(OptionalLong.of(2000), FetchState.newestEndTime(ds, "http://shs:18080"));
        assertEquals(OptionalLong.of(500), FetchState.newestEndTime(ds, "http://other:18080"));
        FetchState.advance(ds, "http://shs:18080", 3000);
        assertEquals(OptionalLong.of(3000), FetchState.newestEndTime(ds, "http://shs:18080"));
    }

    @Test
    void aRememberedTimeInTheFutureIsReplaced() throws Exception {
        DataSource ds = TestDb.migrated();
        FetchState.advance(ds, "http://shs:18080", 253_402_300_799_000L); // the year 9999, kept by an earlier version
        long now = System.currentTimeMillis();
        FetchState.advance(ds, "http://shs:18080", now);
        assertEquals(OptionalLong.of(now), FetchState.newestEndTime(ds, "http://shs:18080"));
    }

    @Test
    void storedCompleteAttemptsAreFound() throws Exception {
        DataSource ds = TestDb.migrated();
        AppSnapshot s = EventLogAnalysis.analyze(EventLogReader.discover(SHIPPED).get(0), RecorderOptions.DEFAULTS,
                p -> { }).snapshot();
        assertEquals(Set.of(), FetchState.storedComplete(ds, List.of(s.appId())));
        new SnapshotWriter().write(ds, s, List.of());
        assertEquals(Set.of(FetchState.key(s.appId(), s.attemptId())),
                FetchState.storedComplete(ds, List.of(s.appId(), "app-not-there")));
        assertEquals(Set.of(), FetchState.storedComplete(ds, List.of()));
    }
}
