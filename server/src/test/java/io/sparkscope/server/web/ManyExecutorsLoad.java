package io.sparkscope.server.web;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.SnapshotWriter;
import io.sparkscope.store.StoreDataSources;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.List;

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
        AppSnapshot s = SnapshotBuilder.synthetic(SnapshotBuilder.syntheticSpec(APP, "elastic", "bench", start,
                1_800_000L));
        List<ExecutorSummary> executors = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            long added = start + i * 10L;
            boolean alive = i % 10 == 0;
            executors.add(ExecutorSummary.builder().executorId(String.valueOf(i)).host("host-" + (i % 500))
                    .totalCores(4).addTime(added).removeTime(alive ? -1 : added + 5_000)
                    .removeReason(alive ? null : i % 1000 == 1 ? "Container killed: " + EVIL : "idle")
                    .maxMemory(1L << 30).completedTasks(3).totalDuration(900).totalRunTime(800)
                    .totalCpuTimeNs(700_000_000L).totalGcTime(10).inputBytes(1 << 20).shuffleReadBytes(1 << 19)
                    .shuffleWriteBytes(1 << 19).hostPort("host-" + (i % 500) + ":40000").totalTasks(3).activeTasks(0)
                    .maxOnHeapMemory(1L << 30).maxOffHeapMemory(0).build());
        }
        AppSnapshot many = SnapshotBuilder.copy(s).executors(executors).build();
        new SnapshotWriter().write(ds, many, List.of());
    }
}
