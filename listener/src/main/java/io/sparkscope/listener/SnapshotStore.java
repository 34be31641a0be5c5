package io.sparkscope.listener;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;

import java.util.List;

/** Where finished or running snapshots go (PostgreSQL in production). Implementations may be slow or fail. */
public interface SnapshotStore extends AutoCloseable {
    void write(AppSnapshot snapshot, List<Finding> findings) throws Exception;

    @Override
    default void close() {
    }
}
