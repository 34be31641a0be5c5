package io.sparkscope.bench;

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The listener's cost split in two, in one run: the driver's share and the database's share. One local[2] application
 * per run executes one SQL job of {@code TASKS} tasks ({@code TASKS - 1} map tasks of {@code spark.range} and one
 * reduce task: {@code SELECT sum(id)}), then stops. Variants, order rotated round by round in one JVM:
 * {@code none}, {@code eventlog} (Spark's event log) and {@code sparkscope} (the listener writing into PostgreSQL).
 *
 * <p>Measured over the job and {@code stop()} (the final flush and the event log's close happen there):
 * <ul>
 *   <li><b>driver's share</b>: CPU of the listener's own threads ({@code sparkscope-*}: recorder, writer, pool) plus
 *       the shared listener queue's thread ({@code spark-listener-group-shared}, where Sparkscope's {@code onEvent}
 *       runs: the only listener on that queue here), against the CPU of Spark's event-log queue thread
 *       ({@code spark-listener-group-eventLog}: JSON encoding and writing) in the event-log variant. Thread CPU from
 *       {@link ThreadMXBean}, read every 20 ms so that a thread that ends in {@code stop()} counts with its last
 *       reading (at most 20 ms of it missed);</li>
 *   <li><b>database's share</b>: CPU of the PostgreSQL backends serving the listener's connections (pids from
 *       {@code pg_stat_activity} → {@code /proc/<pid>/stat}, {@link PgBackendCpu}), and the whole server's
 *       ({@link CpuMeter}: also WAL writer, checkpointer, autovacuum), divided by the task rows and the stage rows
 *       stored for the run; plus the rows PostgreSQL inserted, updated and deleted and its transactions.</li>
 * </ul>
 * Wall time of the job is printed for reference only: on a shared 2-core machine CPU is the figure to compare.
 *
 * <pre>
 * java ... io.sparkscope.bench.ListenerCostBench TASKS ROUNDS JDBC_URL USER PASSWORD
 * </pre>
 * Not a test: see {@code bench/listener-cost.sh} and docs/benchmarks/listener-overhead.md.
 */
public final class ListenerCostBench {
    enum Variant { NONE, EVENTLOG, SPARKSCOPE }

    private ListenerCostBench() {
    }

    public static void main(String[] args) throws Exception {
        int tasks = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        String url = args[2];
        String user = args[3];
        String password = args.length > 4 ? args[4] : "";
        int warmup = Math.max(0, Integer.getInteger("bench.warmupRounds", 1));
        Map<Variant, List<Run>> runs = new EnumMap<>(Variant.class);
        System.out.printf(Locale.ROOT, "%-6s %-11s %8s %8s %9s %9s %9s %9s %9s %8s %8s %8s %8s %6s%n", "round",
                "variant", "job s", "stop s", "sscp ms", "shrd ms", "elog ms", "PGown ms", "PGall ms", "tasks",
                "stages", "stats", "updated", "xacts");
        for (int round = 1 - warmup; round <= rounds; round++) {
            Variant[] order = variants();
            for (int k = 0; k < order.length; k++) {
                Variant v = order[Math.floorMod(k + round, order.length)];
                Run r = run(v, tasks, url, user, password, round);
                if (round > 0) {
                    runs.computeIfAbsent(v, x -> new ArrayList<>()).add(r);
                }
                if (v == Variant.SPARKSCOPE && r.taskRows < tasks) {
                    // stop() waits for the final write at most spark.sparkscope.flush.timeoutMs (the schema migration
                    // of a first run on a busy machine can take longer): the write goes on after the measured stretch
                    System.out.printf(Locale.ROOT, "# warning: %d of %d task rows stored when the run ended: its"
                            + " database figures miss the final write (count the round as a warm-up)%n", r.taskRows, tasks);
                }
                System.out.printf(Locale.ROOT, "%-6s %-11s %8.2f %8.2f %9.1f %9.1f %9.1f %9.1f %9.1f %8d %8d %8d %8d %6d%n",
                        round <= 0 ? round + " (w)" : String.valueOf(round), v.name().toLowerCase(Locale.ROOT),
                        r.jobMs / 1e3, r.stopMs / 1e3, r.sparkscopeMs(), r.groupMs("bus-shared"),
                        r.groupMs("bus-eventLog"), r.pgOwnMs, r.pgAllMs, r.taskRows, r.stageRows, r.statisticsRows,
                        r.rows.getOrDefault("updated", 0L), r.rows.getOrDefault("commits", 0L));
            }
        }
        if (runs.size() < Variant.values().length) {
            return; // a profiling run of some variants only: no comparison to print
        }
        System.out.printf(Locale.ROOT, "%n# medians over %d rounds of one %d-task SQL job%n", rounds, tasks);
        for (Variant v : Variant.values()) {
            List<Run> rs = runs.get(v);
            System.out.printf(Locale.ROOT, "%-11s job %.2f s, stop %.2f s%n", v.name().toLowerCase(Locale.ROOT),
                    median(rs.stream().map(r -> r.jobMs / 1e3).toList()),
                    median(rs.stream().map(r -> r.stopMs / 1e3).toList()));
        }
        List<Run> s = runs.get(Variant.SPARKSCOPE);
        List<Run> e = runs.get(Variant.EVENTLOG);
        // The shared queue's thread also runs Spark's own listeners there (SQL's execution listener bus): what it
        // spends in the run without a listener, same round, is not Sparkscope's.
        List<Run> none = runs.get(Variant.NONE);
        List<Double> onEvent = new ArrayList<>();
        List<Double> own = new ArrayList<>();
        for (int i = 0; i < s.size(); i++) {
            double bus = Math.max(0, s.get(i).groupMs("bus-shared") - none.get(i).groupMs("bus-shared"));
            onEvent.add(bus);
            own.add(s.get(i).sparkscopeMs() + bus);
        }
        double recorder = median(s.stream().map(r -> r.groupMs("sparkscope-recorder")).toList());
        double writer = median(s.stream().map(r -> r.groupMs("sparkscope-writer")).toList());
        double ownMs = median(own);
        double eventLog = median(e.stream().map(r -> r.groupMs("bus-eventLog")).toList());
        System.out.printf(Locale.ROOT, "%n# (a) driver's share, CPU ms per run (per task)%n");
        System.out.printf(Locale.ROOT, "sparkscope: %.1f ms (%.1f µs/task) = recorder %.1f + writer %.1f + other"
                        + " sparkscope threads %.1f + onEvent on the shared listener-bus thread %.1f (its CPU over the"
                        + " same round's run without a listener)%n", ownMs, ownMs * 1e3 / tasks, recorder, writer,
                median(s.stream().map(Run::sparkscopeMs).toList()) - recorder - writer, median(onEvent));
        System.out.printf(Locale.ROOT, "event log:  %.1f ms (%.1f µs/task) on spark-listener-group-eventLog%n",
                eventLog, eventLog * 1e3 / tasks);
        List<Double> paired = new ArrayList<>();
        for (int i = 0; i < s.size(); i++) {
            paired.add(own.get(i) / Math.max(1e-9, e.get(i).groupMs("bus-eventLog")));
        }
        System.out.printf(Locale.ROOT, "sparkscope / event log (driver's share, same round): median %.2f (%s)%n",
                median(paired), paired.stream().map(x -> String.format(Locale.ROOT, "%.2f", x)).toList());
        double pgOwn = median(s.stream().map(r -> r.pgOwnMs).toList());
        double pgAll = median(s.stream().map(r -> r.pgAllMs).toList());
        Run last = s.get(s.size() - 1);
        System.out.printf(Locale.ROOT, "%n# (b) database's share (PostgreSQL backends of the listener's connections)%n");
        System.out.printf(Locale.ROOT, "backends %.1f ms per run (server, all processes: %.1f ms); stored %d task rows,"
                        + " %d stage attempts, %d stage_statistics rows%n", pgOwn, pgAll, last.taskRows, last.stageRows,
                last.statisticsRows);
        System.out.printf(Locale.ROOT, "per task row stored: %.1f µs; per stage attempt stored: %.2f ms"
                        + " (the whole CPU divided by either count, not a split)%n",
                pgOwn * 1e3 / Math.max(1, last.taskRows), pgOwn / Math.max(1, last.stageRows));
        System.out.printf(Locale.ROOT, "rows: inserted %d, updated %d, deleted %d in %d transactions (median run)%n",
                medianLong(s, "inserted"), medianLong(s, "updated"), medianLong(s, "deleted"), medianLong(s, "commits"));
    }

    /** {@code -Dbench.variants=sparkscope,none}: only these (a profiling run); default all three. */
    private static Variant[] variants() {
        String only = System.getProperty("bench.variants", "");
        if (only.isBlank()) {
            return Variant.values();
        }
        return java.util.Arrays.stream(only.split(","))
                .map(x -> Variant.valueOf(x.trim().toUpperCase(Locale.ROOT))).toArray(Variant[]::new);
    }

    private static long medianLong(List<Run> rs, String key) {
        return Math.round(median(rs.stream().map(r -> (double) r.rows.getOrDefault(key, 0L)).toList()));
    }

    record Run(double jobMs, double stopMs, Map<String, Double> threadMs, double pgOwnMs, double pgAllMs,
               Map<String, Long> rows, long taskRows, long stageRows, long statisticsRows) {
        double groupMs(String group) {
            return threadMs.getOrDefault(group, 0.0);
        }

        /** Sparkscope's own threads (recorder, writer, pool); its bus callbacks run on the shared queue's thread. */
        double sparkscopeMs() {
            return threadMs.entrySet().stream().filter(e -> e.getKey().startsWith("sparkscope"))
                    .mapToDouble(Map.Entry::getValue).sum();
        }
    }

    private static Run run(Variant v, int tasks, String url, String user, String password, int round)
            throws Exception {
        String appName = "listener-cost-" + v.name().toLowerCase(Locale.ROOT) + "-" + (round + 1000);
        String variant = v.name().toLowerCase(Locale.ROOT);
        Path logDir = v == Variant.EVENTLOG ? Files.createTempDirectory("listener-cost-eventlog") : null;
        SparkConf conf = ListenerVariants.conf(appName, variant, logDir, url, user, password, "listener-cost")
                .set("spark.sql.shuffle.partitions", "1");
        SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
        String appId = spark.sparkContext().applicationId();
        String database = ManyJobsBench.database(url);
        ThreadCpu threads = new ThreadCpu();
        CpuMeter server = new CpuMeter(database);
        PgBackendCpu backends = v == Variant.SPARKSCOPE ? new PgBackendCpu(url, user, password, database) : null;
        long t0 = System.nanoTime();
        spark.range(0, tasks - 1L, 1, tasks - 1).selectExpr("sum(id)").collectAsList();
        long t1 = System.nanoTime();
        spark.stop();
        long t2 = System.nanoTime();
        threads.close();
        server.close();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
        Map<String, Long> rows = Map.of();
        long taskRows = 0;
        long stageRows = 0;
        long statisticsRows = 0;
        double pgOwn = 0;
        if (backends != null) {
            rows = backends.stop();
            pgOwn = backends.ms();
            String of = " JOIN application a USING (app_pk) WHERE a.app_id = ?";
            taskRows = backends.count("SELECT count(*) FROM task" + of, appId);
            stageRows = backends.count("SELECT count(*) FROM stage_attempt" + of, appId);
            statisticsRows = backends.count("SELECT count(*) FROM stage_statistics" + of, appId);
            backends.close();
        }
        if (logDir != null) {
            try (var files = Files.walk(logDir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        return new Run((t1 - t0) / 1e6, (t2 - t1) / 1e6, threads.groupMs(), pgOwn, server.postgresAllMs(), rows,
                taskRows, stageRows, statisticsRows);
    }

    /**
     * CPU of the Java threads by group ({@link CpuMeter#group}) since construction, read every 20 ms: the listener's
     * threads end inside {@code stop()}, and a thread that ended has no CPU time to ask for any more.
     */
    static final class ThreadCpu implements AutoCloseable {
        private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        private final Map<Long, Long> first = new HashMap<>();
        private final Map<Long, Long> last = new HashMap<>();
        private final Map<Long, String> names = new HashMap<>();
        private final Thread sampler;
        private volatile boolean running = true;

        ThreadCpu() {
            sample(true);
            sampler = new Thread(() -> {
                while (running) {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                    sample(false);
                }
            }, "bench-thread-cpu");
            sampler.setDaemon(true);
            sampler.start();
        }

        private synchronized void sample(boolean atStart) {
            for (ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
                if (info == null) {
                    continue;
                }
                String group = CpuMeter.group(info.getThreadName());
                if (group.equals("other")) {
                    continue; // Spark's own threads: not needed here, and reading them all every 20 ms costs
                }
                long ns = mx.getThreadCpuTime(info.getThreadId());
                if (ns < 0) {
                    continue;
                }
                first.putIfAbsent(info.getThreadId(), atStart ? ns : 0L);
                last.put(info.getThreadId(), ns);
                names.put(info.getThreadId(), group);
            }
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            sampler.interrupt();
            sampler.join(1_000);
            sample(false);
        }

        synchronized Map<String, Double> groupMs() {
            Map<String, Double> out = new TreeMap<>();
            last.forEach((id, ns) -> out.merge(names.get(id), (ns - first.get(id)) / 1e6, Double::sum));
            return out;
        }
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
