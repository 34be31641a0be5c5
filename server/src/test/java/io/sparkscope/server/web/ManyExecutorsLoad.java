package io.sparkscope.server.web;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.testing.SyntheticApps;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.StoreDataSources;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One synthetic application that added and removed {@code n} executors (an elastic run), written in one bulk write:
 * {@code ManyExecutorsLoad <jdbc-url> <user> <password> <n>} for bench/executors-page-latency.sh, and
 * {@link #write} for the tests. Its id is {@link #APP}; executors "1" … "n", every tenth still alive, one in a
 * thousand removed for a reason that is markup.
 */
public final class ManyExecutorsLoad {
    public static final String APP = "app-many-executors";
    static final String EVIL = "<script>alert(1)</script>";

    private ManyExecutorsLoad() {
    }

    public static void main(String[] args) throws Exception {
        try (var ds = StoreDataSources.pooled(args[0], args[1], args[2], 2)) {
            SchemaManager.migrate(ds);
            write(ds, Integer.parseInt(args[3]));
        }
    }

    static void write(DataSource ds, int n) throws Exception {
        long start = System.currentTimeMillis() - 3_600_000L;
        AppSnapshot s = SyntheticApps.snapshot(SyntheticApps.spec(APP, "elastic", "bench", start, 1_800_000L));
        List<ExecutorSummary> executors = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            long added = start + i * 10L;
            boolean alive = i % 10 == 0;
            executors.add(new ExecutorSummary(String.valueOf(i), "host-" + (i % 500), 4, added, alive ? -1 : added + 5_000,
                    alive ? null : i % 1000 == 1 ? "Container killed: " + EVIL : "idle", 1L << 30, 3, 0, 0, 900, 800,
                    700_000_000L, 10, 1 << 20, 1 << 19, 1 << 19, 0, 0, Map.of(), "host-" + (i % 500) + ":40000",
                    true, 3, 0, 1L << 30, 0));
        }
        AppSnapshot many = new AppSnapshot(s.appId(), s.attemptId(), s.appName(), s.sparkUser(), s.sparkVersion(),
                s.startTime(), s.endTime(), s.lastEventTime(), s.complete(), s.config(), executors, s.jobs(), s.stages(),
                s.sqlExecutions(), s.driverGcTimeMs(), s.driverMaxMemory(), s.eventCount(), s.unknownEventTypes());
        new SnapshotWriter().write(ds, many, List.of());
    }
}
