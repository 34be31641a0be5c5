package io.sparkscope.listener;

import io.sparkscope.core.model.AppSnapshot;

/** Placeholder until the store module lands: writes nothing and says so. */
final class JdbcSnapshotStore implements SnapshotStore {
    JdbcSnapshotStore(ListenerConfig cfg) {
    }

    @Override
    public void write(AppSnapshot snapshot) {
        throw new UnsupportedOperationException("database writing not available yet");
    }
}
