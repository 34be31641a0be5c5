package io.sparkscope.listener;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;

import java.util.List;

/** Placeholder until the store module lands: writes nothing and says so. */
final class JdbcSnapshotStore implements SnapshotStore {
    JdbcSnapshotStore(ListenerConfig cfg) {
    }

    @Override
    public void write(AppSnapshot snapshot, List<Finding> findings) {
        throw new UnsupportedOperationException("database writing not available yet");
    }
}
