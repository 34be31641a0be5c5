package io.sparkscope.server.web;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.StoreDataSources;

import java.util.List;

/**
 * Stores one synthetic application with a single stage of {@code tasks} kept tasks for the task-table bench
 * (bench/task-table-latency.sh): {@code TaskTableLoad <jdbc-url> <user> <password> <tasks>}. Its id is
 * {@code app-big-stage}; the stage is 0.0.
 */
public final class TaskTableLoad {
    public static void main(String[] args) throws Exception {
        int tasks = Integer.parseInt(args[3]);
        try (var ds = StoreDataSources.pooled(args[0], args[1], args[2], 2)) {
            SchemaManager.migrate(ds);
            var spec = SnapshotBuilder.syntheticSpec("app-big-stage", "big stage", "bench",
                    System.currentTimeMillis() - 3_600_000L, 1_800_000L);
            var s = new SnapshotBuilder.SyntheticSpec(spec.appId(), null, spec.name(), spec.user(), spec.start(),
                    spec.durationMs(), true, spec.conf(), 1, 1, tasks, null, 0, 7);
            new SnapshotWriter().write(ds, SnapshotBuilder.synthetic(s), List.of());
        }
    }
}
