package io.sparkscope.listener;

import io.sparkscope.core.model.AppSnapshot;

/** Where finished or running snapshots go (PostgreSQL in production). Implementations may be slow or fail. */
public interface SnapshotStore extends AutoCloseable {
    void write(AppSnapshot snapshot) throws Exception;

    @Override
    default void close() {
    }
}
