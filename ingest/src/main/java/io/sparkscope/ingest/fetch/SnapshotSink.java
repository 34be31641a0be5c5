package io.sparkscope.ingest.fetch;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.ingest.IngestResult;

/**
 * Where fetched snapshots go (the database's {@link io.sparkscope.store.ingest.IngestService} in
 * {@code sparkscope fetch}); called from the fetch pool's threads.
 */
@FunctionalInterface
public interface SnapshotSink {
    /** Stores one snapshot and says what happened; a database that went away ends the whole run. */
    IngestResult store(AppSnapshot snapshot);
}
