package io.sparkscope.bench;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.testing.SyntheticLog;
import io.sparkscope.listener.SimulatedDriver;
import io.sparkscope.store.SchemaManager;
import io.sparkscope.store.StoreDataSources;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many drivers and a {@code watch} writing into one PostgreSQL at once. Each simulated driver is the listener's own
 * recording path ({@link SimulatedDriver}: recorder thread, writer thread, a pool of two connections) fed a growing
 * application, one job of one stage of {@code --tasks} tasks every {@code --stage-every-ms}, and flushing at the
 * listener's default interval; meanwhile the real {@code sparkscope watch} (a separate JVM, {@code --watch-jar}) imports
 * {@code --watched} event logs that grow at the same pace and end with the drivers. After {@code --seconds} every
 * application ends; the bench waits for the final writes and checks each stored row against its driver's last snapshot.
 *
 * <p>One line per run: the database writes' latency (p50/p95/p99/max of every periodic and final write of every
 * driver but its first; the median of the first, which also starts the driver's pool and checks the schema),
 * snapshots written per second, rows per second (PostgreSQL's own count of rows inserted, updated and
 * deleted in the database, watcher included), PostgreSQL's CPU as a share of one core (its backends serving this
 * database, and all its processes), the bench JVM's CPU, errors (failed writes, dropped events, warnings of the
 * watcher), deadlocks ({@code pg_stat_database.deadlocks}), lost snapshots (a driver whose stored row is not its final
 * snapshot: event count, complete, every stage), late ones (stored, but after {@code flush.timeoutMs}: a real driver
 * would have exited first) and the watched logs stored complete. Not a test:
 * {@code bench/many-writers.sh}, docs/benchmarks/many-writers.md.
 *
 * <pre>java ... io.sparkscope.bench.ManyWritersBench JDBC_URL USER PASSWORD --writers N [--seconds 60] [--tasks 40]
 *     [--stage-every-ms 2000] [--flush-ms listener default] [--watched 4] [--watch-jar server/target/sparkscope.jar]
 *     [--watch-interval 10s] [--work DIR] [--header]</pre>
 */
public final class ManyWritersBench {
    private static final long START = 1_764_000_000_000L;

    private ManyWritersBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opt = options(args);
        String url = args[0];
        String user = args[1];
        String password = args[2];
        int writers = Integer.parseInt(opt.getOrDefault("--writers", "10"));
        int seconds = Integer.parseInt(opt.getOrDefault("--seconds", "60"));
        int tasks = Integer.parseInt(opt.getOrDefault("--tasks", "40"));
        long stageEveryMs = Long.parseLong(opt.getOrDefault("--stage-every-ms", "2000"));
        int watched = Integer.parseInt(opt.getOrDefault("--watched", "4"));
        String watchJar = opt.get("--watch-jar");
        Path work = Path.of(opt.getOrDefault("--work", Files.createTempDirectory("many-writers").toString()));
        if (opt.containsKey("--header")) {
            System.out.printf(Locale.ROOT, "%7s %5s %7s %8s %8s %8s %8s %9s %8s %9s %7s %7s %7s %6s %9s %5s %5s %8s%n",
                    "writers", "s", "writes", "p50 ms", "p95 ms", "p99 ms", "max ms", "first ms", "snaps/s", "rows/s",
                    "pg %",
                    "pgall %", "bench %", "errors", "deadlocks", "lost", "late", "watched");
        }
        int stages = (int) (seconds * 1000L / stageEveryMs) + 1;
        List<List<SparkEvent>> chunks = growingApplication(work, stages, tasks);

        try (var admin = StoreDataSources.pooled(url, user, password, 2)) { // Flyway takes two
            // a running installation: the schema is there before the drivers start
            SchemaManager.migrate(admin);
            Counters before = Counters.read(admin);
            AtomicLong failures = new AtomicLong();
            ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Long> firstWrites = new ConcurrentLinkedQueue<>();
            List<SimulatedDriver> drivers = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                Map<String, String> conf = new HashMap<>();
                conf.put("spark.sparkscope.jdbc.url", url);
                conf.put("spark.sparkscope.jdbc.user", user);
                if (password != null && !password.isEmpty()) {
                    conf.put("spark.sparkscope.jdbc.password", password);
                }
                conf.put("spark.sparkscope.spool.dir", work.resolve("spool-" + i).toString());
                conf.put("spark.sparkscope.report.enabled", "false");
                if (opt.containsKey("--flush-ms")) {
                    conf.put("spark.sparkscope.flush.intervalMs", opt.get("--flush-ms"));
                }
                // A driver's first write also starts its pool and checks the schema, once in its life: apart.
                AtomicBoolean first = new AtomicBoolean(true);
                drivers.add(new SimulatedDriver(conf, ns -> (first.getAndSet(false) ? firstWrites : latencies).add(ns),
                        ns -> failures.incrementAndGet()));
            }
            Watcher watcher = watchJar == null ? null
                    : Watcher.start(Path.of(watchJar), work, url, user, password, opt.getOrDefault("--watch-interval",
                    "10s"), watched, stages, tasks);

            CpuMeter cpu = new CpuMeter(database(url));
            cpu.resume();
            long t0 = System.nanoTime();
            ScheduledExecutorService feeder = Executors.newScheduledThreadPool(2);
            AtomicInteger[] fed = new AtomicInteger[writers];
            for (int i = 0; i < writers; i++) {
                SimulatedDriver d = drivers.get(i);
                d.start();
                fed[i] = new AtomicInteger();
                AtomicInteger next = fed[i];
                String appId = "app-writer-" + i;
                String name = "writer-" + i % 20; // recurring applications: their final writes compare runs
                // drivers start spread over one stage's time, as independent applications would
                feeder.scheduleAtFixedRate(() -> {
                    int k = next.get();
                    if (k < chunks.size()) {
                        for (SparkEvent e : chunks.get(k)) {
                            d.offer(e instanceof SparkEvent.ApplicationStart s
                                    ? new SparkEvent.ApplicationStart(name, appId, null, s.time(), s.sparkUser()) : e);
                        }
                        next.incrementAndGet();
                    }
                }, i * stageEveryMs / writers, stageEveryMs, TimeUnit.MILLISECONDS);
            }
            if (watcher != null) {
                watcher.growEvery(feeder, stageEveryMs);
            }
            Thread.sleep(seconds * 1000L);
            feeder.shutdown();
            feeder.awaitTermination(1, TimeUnit.MINUTES);
            for (SimulatedDriver d : drivers) {
                d.offer(new SparkEvent.ApplicationEnd(START + seconds * 1000L));
            }
            boolean[] finished = new boolean[writers];
            for (int i = 0; i < writers; i++) {
                finished[i] = drivers.get(i).awaitFinished(120_000);
            }
            // The measured stretch ends here, for every figure: the watcher's catching up with the logs' ends is apart.
            double wallMs = (System.nanoTime() - t0) / 1e6;
            cpu.pause();
            cpu.close();
            long rows = Counters.read(admin).rows - before.rows;
            int watchedComplete = 0;
            long watcherWarnings = 0;
            if (watcher != null) {
                watcher.end();
                watchedComplete = watcher.awaitStored(admin, 120_000);
                watcherWarnings = watcher.stop();
            }
            long dropped = 0;
            int lost = 0;
            int late = 0;
            for (int i = 0; i < writers; i++) {
                SimulatedDriver d = drivers.get(i);
                dropped += d.droppedEvents();
                String appId = "app-writer-" + i;
                String why = !finished[i] ? "final snapshot not handled within two minutes" : d.notStored();
                if (why != null) {
                    System.err.println(appId + ": " + why);
                }
                if (!finished[i] || !storedAsLast(admin, appId, d.lastSnapshot(), fed[i].get())) {
                    lost++;
                } else if (why != null) {
                    // stored in the end, but after flush.timeoutMs: a real driver would have exited before that
                    late++;
                }
                d.stop();
            }
            // every pool is closed now, so each backend has reported its deadlocks and row counts on exit
            Thread.sleep(1_500);
            Counters after = Counters.read(admin);
            List<Long> sorted = new ArrayList<>(latencies);
            sorted.sort(null);
            List<Long> firsts = new ArrayList<>(firstWrites);
            firsts.sort(null);
            double s = wallMs / 1000;
            System.out.printf(Locale.ROOT, "%7d %5d %7d %8.1f %8.1f %8.1f %8.1f %9.1f %8.1f %9.0f %7.0f %7.0f %7.0f %6d "
                            + "%9d %5d %5d %8s%n", writers, seconds, sorted.size(), pct(sorted, 50), pct(sorted, 95),
                    pct(sorted, 99), pct(sorted, 100), pct(firsts, 50), (sorted.size() + firsts.size()) / s,
                    rows / s,
                    cpu.postgresOwnMs() / wallMs * 100, cpu.postgresAllMs() / wallMs * 100,
                    cpu.processMs() / wallMs * 100, failures.get() + dropped + watcherWarnings,
                    after.deadlocks - before.deadlocks, lost, late, watcher == null ? "-" : watchedComplete + "/" + watched);
        }
    }

    /** The stored row is the driver's final snapshot: its event count, complete, and every stage it was fed. */
    private static boolean storedAsLast(DataSource ds, String appId, AppSnapshot last, int stagesFed)
            throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT a.event_count,"
                + " a.complete, (SELECT count(*) FROM stage_attempt s WHERE s.app_pk = a.app_pk) FROM application a"
                + " WHERE a.app_id = ?")) {
            ps.setString(1, appId);
            try (ResultSet rs = ps.executeQuery()) {
                boolean ok = rs.next() && last != null && rs.getLong(1) == last.eventCount() && rs.getBoolean(2)
                        && rs.getLong(3) == stagesFed;
                if (!ok) {
                    System.err.println(appId + ": stored row is not the final snapshot");
                }
                return ok;
            }
        }
    }

    /**
     * The drivers' application: a synthetic event log of {@code stages} one-stage jobs, decoded once, cut into one
     * chunk per job (the header goes with the first), without an end: each driver posts its own.
     */
    private static List<List<SparkEvent>> growingApplication(Path work, int stages, int tasks) throws Exception {
        Path log = work.resolve("driver-application");
        new SyntheticLog("app-writer", "writer", START, stages, tasks).running().writeTo(log);
        List<List<SparkEvent>> chunks = new ArrayList<>();
        List<SparkEvent> chunk = new ArrayList<>();
        EventLogReader.read(EventLogReader.discover(log).get(0), e -> {
            chunk.add(e);
            if (e instanceof SparkEvent.JobEnd) {
                chunks.add(List.copyOf(chunk));
                chunk.clear();
            }
        }, p -> { throw new IllegalStateException(p); });
        Files.delete(log);
        return chunks;
    }

    private static double pct(List<Long> sortedNs, int p) {
        if (sortedNs.isEmpty()) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p / 100.0 * sortedNs.size()) - 1;
        return sortedNs.get(Math.max(0, Math.min(sortedNs.size() - 1, i))) / 1e6;
    }

    static String database(String url) {
        String path = url.substring(url.indexOf("//") + 2);
        path = path.substring(path.indexOf('/') + 1);
        int q = path.indexOf('?');
        return q < 0 ? path : path.substring(0, q);
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> out = new HashMap<>();
        for (int i = 3; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + args[i] + " (options are --name value)");
            }
            boolean flag = i + 1 >= args.length || args[i + 1].startsWith("--");
            out.put(args[i], flag ? "" : args[++i]);
        }
        return out;
    }

    /** PostgreSQL's counters of this database: rows written and deadlocks. */
    private record Counters(long rows, long deadlocks) {
        static Counters read(DataSource ds) throws SQLException {
            try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT tup_inserted"
                    + " + tup_updated + tup_deleted, deadlocks FROM pg_stat_database WHERE datname = current_database()");
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Counters(rs.getLong(1), rs.getLong(2));
            }
        }
    }

    /**
     * {@code sparkscope watch} in its own JVM over a directory of logs that grow one job at a time, as running drivers
     * write them ({@code .inprogress}, renamed when the application ends).
     */
    private static final class Watcher {
        private final Process process;
        private final Path logFile;
        private final List<Path> logs = new ArrayList<>();
        private final List<Iterator<String>> lines = new ArrayList<>();
        private final List<String> appIds = new ArrayList<>();
        private final int linesPerStage;

        private Watcher(Process process, Path logFile, int tasks) {
            this.process = process;
            this.logFile = logFile;
            this.linesPerStage = 2 * tasks + 4;
        }

        static Watcher start(Path jar, Path work, String url, String user, String password, String interval,
                             int count, int stages, int tasks) throws IOException {
            Path dir = Files.createDirectories(work.resolve("watched"));
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-Xmx512m", "-jar", jar.toString(), "watch", dir.toString(), "--db", url, "--user",
                    user, "--interval", interval));
            ProcessBuilder pb = new ProcessBuilder(cmd);
            if (password != null && !password.isEmpty()) {
                pb.environment().put("SPARKSCOPE_DB_PASSWORD", password);
            }
            Path logFile = work.resolve("watch.log");
            pb.redirectErrorStream(true).redirectOutput(logFile.toFile());
            Watcher w = new Watcher(pb.start(), logFile, tasks);
            for (int i = 0; i < count; i++) {
                String appId = "application_" + START + "_" + String.format(Locale.ROOT, "%04d", i + 1);
                SyntheticLog log = new SyntheticLog(appId, "watched-" + i, START, stages, tasks).seed(i);
                Path file = dir.resolve(appId + ".inprogress");
                w.logs.add(file);
                w.appIds.add(appId);
                Iterator<String> it = log.lines();
                w.lines.add(it);
                w.append(i, 4 + 4 + w.linesPerStage); // the header (four executors) and the first job
            }
            return w;
        }

        void growEvery(ScheduledExecutorService feeder, long ms) {
            feeder.scheduleAtFixedRate(() -> {
                for (int i = 0; i < logs.size(); i++) {
                    append(i, linesPerStage);
                }
            }, ms, ms, TimeUnit.MILLISECONDS);
        }

        private void append(int i, long n) {
            try (OutputStream out = Files.newOutputStream(logs.get(i), StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND)) {
                SyntheticLog.write(lines.get(i), out, n, true);
            } catch (IOException e) {
                throw new IllegalStateException("cannot write " + logs.get(i) + ": " + e.getMessage(), e);
            }
        }

        /** The applications end: the rest of each log, then the rename Spark does at the end. */
        void end() throws IOException {
            for (int i = 0; i < logs.size(); i++) {
                append(i, Long.MAX_VALUE);
                Path file = logs.get(i);
                Files.move(file, file.resolveSibling(appIds.get(i)), StandardCopyOption.ATOMIC_MOVE);
            }
        }

        /** Waits until every watched application is stored complete; how many are. */
        int awaitStored(DataSource ds, long timeoutMs) throws SQLException, InterruptedException {
            long deadline = System.currentTimeMillis() + timeoutMs;
            while (true) {
                int complete;
                try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                        "SELECT count(*) FROM application WHERE complete AND app_id = ANY (?)")) {
                    ps.setArray(1, c.createArrayOf("text", appIds.toArray()));
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        complete = rs.getInt(1);
                    }
                }
                if (complete == appIds.size() || System.currentTimeMillis() > deadline) {
                    return complete;
                }
                Thread.sleep(500);
            }
        }

        /** Stops the watcher; the lines it logged at WARN or ERROR (printed to stderr). */
        long stop() throws IOException, InterruptedException {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            List<String> bad = Files.readAllLines(logFile).stream()
                    .filter(l -> l.contains(" WARN ") || l.contains(" ERROR ") || l.startsWith("error")).toList();
            bad.forEach(l -> System.err.println("watch: " + l));
            return bad.size();
        }
    }
}
