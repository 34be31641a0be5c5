package io.sparkscope.server.fetch;

import io.sparkscope.core.model.AppSnapshot;

/** Where fetched snapshots go (the database in {@code sparkscope fetch}); called from the fetch pool's threads. */
@FunctionalInterface
public interface SnapshotSink {
    /** Stores one snapshot and says in a few words what happened ("stored, 3 findings"). */
    String store(AppSnapshot snapshot) throws Exception;
}
