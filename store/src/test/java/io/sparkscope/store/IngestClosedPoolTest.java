package io.sparkscope.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.ingest.IngestResult;
import io.sparkscope.store.ingest.IngestService;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.sparkscope.core.testing.SnapshotBuilder.app;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code fetch} closes its pool when it stops after losing the database, while a worker may still be storing the
 * next application. That store fails like any other on a lost database: no "cannot compare with previous runs"
 * warning printed after the run's one-line error.
 */
class IngestClosedPoolTest {
    @Test
    void aStoreOnAPoolItsOwnerClosedFailsWithoutAWarning() {
        HikariConfig config = new HikariConfig();
        config.setDataSource(TestDb.migrated());
        HikariDataSource pool = new HikariDataSource(config);
        List<String> warnings = new CopyOnWriteArrayList<>();
        IngestService ingest = IngestService.builder(pool).warnings(warnings::add).build();
        AppSnapshot run = app().id("app-closed").name("nightly").durationMs(60_000).build();
        assertTrue(run.complete(), "a complete run is compared with the earlier ones");
        pool.close();

        IngestResult result = ingest.ingest(run, List.of());
        assertFalse(result.stored(), result.reason());
        assertEquals(List.of(), warnings);
    }
}
