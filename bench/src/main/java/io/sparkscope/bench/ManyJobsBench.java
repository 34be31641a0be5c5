package io.sparkscope.bench;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Per-job overhead of the listener on a long-running driver: one local[2] application runs N one-task SQL jobs back
 * to back ({@code spark.range(0, 4, 1, 1).selectExpr("id * 2").collect()}), as a job server or a notebook does.
 * Variants, alternated round by round in one JVM so that machine load hits them alike:
 * <ul>
 *   <li>{@code none}: no listener (the baseline of the ratios);</li>
 *   <li>{@code eventlog}: Spark's own event logging ({@code spark.eventLog.enabled}), the cost users accept;</li>
 *   <li>{@code sparkscope}: the listener writing into PostgreSQL ({@code spark.sparkscope.jdbc.url}).</li>
 * </ul>
 * Wall time covers the jobs only (not the session's start and stop). Heap: used heap after a full GC every
 * {@code N/10} jobs. CPU per job over the same stretch (forced GCs left out), which hardly depends on the machine's
 * load: the JVM's process CPU, the part of it on Sparkscope's threads and on each Spark listener queue's thread, and
 * the PostgreSQL server's, the JVM's GC, JIT and VM threads and the bytes each thread group allocated
 * ({@link CpuMeter}). The overhead mode first runs warm-up rounds of every variant at the full job count, printed but
 * not counted ({@code -Dbench.warmupRounds=N}, default 1, 0 leaves them out), and ends with the two listeners paired
 * round by round (Sparkscope over the event log: median, mean and its 95 % interval). Not a test: see {@code bench/many-jobs.sh} and
 * docs/benchmarks/long-running-drivers.md.
 *
 * <pre>
 * java ... io.sparkscope.bench.ManyJobsBench overhead JOBS ROUNDS JDBC_URL USER PASSWORD
 * java ... io.sparkscope.bench.ManyJobsBench heap JOBS VARIANT JDBC_URL USER PASSWORD
 * </pre>
 */
public final class ManyJobsBench {
    enum Variant { NONE, EVENTLOG, SPARKSCOPE }

    private ManyJobsBench() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int jobs = Integer.parseInt(args[1]);
        String url = args[3];
        String user = args[4];
        String password = args.length > 5 ? args[5] : "";
        if (mode.equals("overhead")) {
            overhead(jobs, Integer.parseInt(args[2]), url, user, password);
        } else {
            Variant v = Variant.valueOf(args[2].toUpperCase(Locale.ROOT));
            Run r = run(v, jobs, url, user, password, Math.max(1, jobs / 10));
            System.out.printf(Locale.ROOT, "# %s, %d jobs: %.1f s, %.2f ms/job; %s%n", v, jobs, r.wallMs / 1e3,
                    r.wallMs / jobs, r.cpuLine(jobs));
            System.out.printf(Locale.ROOT, "# heap after GC (MB) by jobs done:%n");
            for (int i = 0; i < r.heapMb.size(); i++) {
                System.out.printf(Locale.ROOT, "%8d %8.1f%n", r.heapAt.get(i), r.heapMb.get(i));
            }
        }
    }

    private static void overhead(int jobs, int rounds, String url, String user, String password) throws Exception {
        // Round 0 is a warm-up, printed but not counted: a whole round of every variant at the full job count, so
        // that class loading, the JIT (of Spark's code and of Sparkscope's: its window fills and starts evicting only
        // after 1 000 jobs, its diagnosis runs every 30 s), Spark's codegen cache and the schema migration are done
        // before the first counted round. A 200-job warm-up left the first counted round 20-30 % slower for every
        // variant and gave its JIT work to whichever variant ran first.
        Map<Variant, List<Double>> walls = new EnumMap<>(Variant.class);
        Map<Variant, List<Double>> ratios = new EnumMap<>(Variant.class);
        Map<Variant, List<Run>> runs = new EnumMap<>(Variant.class);
        List<Double> sparkscopeToEventLog = new ArrayList<>();
        System.out.printf(Locale.ROOT, "%-6s %-11s %9s %9s %9s %12s %8s%n", "round", "variant", "wall s", "ms/job",
                "vs none", "heap MB", "load1");
        // More than one warm-up round for the comparison with the event log: the JIT goes on compiling Spark's code
        // (and Sparkscope's) for tens of thousands of jobs, and while it does every run in the JVM is faster than the
        // one before it, so the position in a round weighs as much as the variant.
        int warmupRounds = Math.max(0, Integer.getInteger("bench.warmupRounds", 1));
        for (int round = 1 - warmupRounds; round <= rounds; round++) {
            boolean warmUp = round <= 0;
            Map<Variant, Double> thisRound = new EnumMap<>(Variant.class);
            // Rotate the order every round so that no variant always runs first (a warmer or colder machine).
            Variant[] order = Variant.values();
            for (int k = 0; k < order.length; k++) {
                Variant v = order[Math.floorMod(k + round, order.length)];
                Run r = run(v, jobs, url, user, password, Math.max(1, jobs / 4));
                thisRound.put(v, r.wallMs);
                if (!warmUp) {
                    walls.computeIfAbsent(v, x -> new ArrayList<>()).add(r.wallMs);
                    runs.computeIfAbsent(v, x -> new ArrayList<>()).add(r);
                }
                System.out.printf(Locale.ROOT, "%-6s %-11s %9.1f %9.2f %9s %5.0f → %-5.0f %8s   %s%n",
                        warmUp ? round + " (w)" : String.valueOf(round), v.name().toLowerCase(Locale.ROOT), r.wallMs / 1e3, r.wallMs / jobs, "",
                        r.heapMb.get(0), r.heapMb.get(r.heapMb.size() - 1), load(), r.cpuLine(jobs));
            }
            if (!warmUp) {
                for (Variant v : Variant.values()) {
                    ratios.computeIfAbsent(v, x -> new ArrayList<>()).add(thisRound.get(v) / thisRound.get(Variant.NONE));
                }
                sparkscopeToEventLog.add(thisRound.get(Variant.SPARKSCOPE) / thisRound.get(Variant.EVENTLOG));
            }
            System.out.printf(Locale.ROOT, "       ratios round %d%s: eventlog %.3f, sparkscope %.3f,"
                            + " sparkscope/eventlog %.3f%n", round, warmUp ? " (warm-up, not counted)" : "",
                    thisRound.get(Variant.EVENTLOG) / thisRound.get(Variant.NONE),
                    thisRound.get(Variant.SPARKSCOPE) / thisRound.get(Variant.NONE),
                    thisRound.get(Variant.SPARKSCOPE) / thisRound.get(Variant.EVENTLOG));
        }
        System.out.printf(Locale.ROOT, "%n# median over %d rounds of %d jobs%n", rounds, jobs);
        for (Variant v : Variant.values()) {
            System.out.printf(Locale.ROOT, "%-11s wall %.1f s, %.2f ms/job, ratio to none (same round) median %.3f"
                            + " (min %.3f, max %.3f)%n", v.name().toLowerCase(Locale.ROOT), median(walls.get(v)) / 1e3,
                    median(walls.get(v)) / jobs, median(ratios.get(v)), min(ratios.get(v)), max(ratios.get(v)));
        }
        // The two listeners head to head, paired within each round (same machine state): the mean of the per-round
        // ratio with a 95 % Student t interval, so that "no more than the event log" is a statement with a margin.
        DescriptiveStatistics paired = new DescriptiveStatistics();
        sparkscopeToEventLog.forEach(paired::addValue);
        long n = paired.getN();
        double mean = paired.getMean();
        double half = n < 2 ? Double.NaN : new TDistribution(n - 1).inverseCumulativeProbability(0.975)
                * paired.getStandardDeviation() / Math.sqrt(n);
        System.out.printf(Locale.ROOT, "sparkscope / eventlog (same round): median %.3f, mean %.3f, 95 %% interval of"
                        + " the mean %.3f–%.3f, %d of %d rounds ≤ 1%n", median(sparkscopeToEventLog), mean,
                mean - half, mean + half, sparkscopeToEventLog.stream().filter(x -> x <= 1).count(),
                sparkscopeToEventLog.size());
        System.out.printf(Locale.ROOT, "%n# CPU per job, median over %d rounds (ms/job; PostgreSQL own = the backends of"
                + " this database, all = every postgres process of the server)%n", rounds);
        System.out.printf(Locale.ROOT, "%-11s %8s %9s %10s %9s %9s %9s %12s %8s %8s %11s %11s %9s%n", "variant", "JVM",
                "JVM+PG", "sparkscope", "bus-shrd", "bus-elog", "PG own", "PG all", "GC thr", "JIT thr", "alloc KB",
                "alloc sscp", "other thr");
        Map<Variant, Double> jvmPlusPg = new EnumMap<>(Variant.class);
        for (Variant v : Variant.values()) {
            List<Run> rs = runs.get(v);
            double jvm = median(rs.stream().map(r -> r.cpu.processMs() / jobs).toList());
            double pgOwn = median(rs.stream().map(r -> r.cpu.postgresOwnMs() / jobs).toList());
            double pgAll = median(rs.stream().map(r -> r.cpu.postgresAllMs() / jobs).toList());
            double total = median(rs.stream().map(r -> (r.cpu.processMs() + r.cpu.postgresOwnMs()) / jobs).toList());
            jvmPlusPg.put(v, total);
            System.out.printf(Locale.ROOT, "%-11s %8.2f %9.2f %10.2f %9.2f %9.2f %9.2f %12.2f %8.2f %8.2f %11.1f %11.1f %9.2f%n",
                    v.name().toLowerCase(Locale.ROOT), jvm, total, median(rs.stream().map(r -> r.sparkscopeMs() / jobs).toList()),
                    median(rs.stream().map(r -> r.groupMs("bus-shared") / jobs).toList()),
                    median(rs.stream().map(r -> r.groupMs("bus-eventLog") / jobs).toList()), pgOwn, pgAll,
                    median(rs.stream().map(r -> r.cpu.nativeMs().get("gc") / jobs).toList()),
                    median(rs.stream().map(r -> r.cpu.nativeMs().get("jit") / jobs).toList()),
                    median(rs.stream().map(r -> r.allocatedKb(null, jobs)).toList()),
                    median(rs.stream().map(r -> r.allocatedKb("sparkscope", jobs)).toList()),
                    median(rs.stream().map(r -> r.groupMs("other") / jobs).toList()));
        }
        System.out.printf(Locale.ROOT, "# CPU added per job over none (JVM + PostgreSQL own): eventlog %+.2f ms, "
                        + "sparkscope %+.2f ms%n", jvmPlusPg.get(Variant.EVENTLOG) - jvmPlusPg.get(Variant.NONE),
                jvmPlusPg.get(Variant.SPARKSCOPE) - jvmPlusPg.get(Variant.NONE));
    }

    record Run(double wallMs, List<Integer> heapAt, List<Double> heapMb, CpuMeter cpu) {
        double groupMs(String group) {
            return cpu.groupMs().getOrDefault(group, 0.0);
        }

        /** Sparkscope's own threads (recorder, writer, pool); its bus callbacks run on the shared queue's thread. */
        double sparkscopeMs() {
            return cpu.groupMs().entrySet().stream().filter(e -> e.getKey().startsWith("sparkscope"))
                    .mapToDouble(Map.Entry::getValue).sum();
        }

        /** KB allocated per job by a thread group's Java threads, or by all of them (group null). */
        double allocatedKb(String group, int jobs) {
            long bytes = 0;
            for (var e : cpu.allocatedBytes().entrySet()) {
                if (group == null || e.getKey().startsWith(group)) {
                    bytes += e.getValue();
                }
            }
            return bytes / 1024.0 / jobs;
        }

        String cpuLine(int jobs) {
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                    "CPU ms/job: JVM %.2f, PostgreSQL own %.2f (all %.2f); threads:", cpu.processMs() / jobs,
                    cpu.postgresOwnMs() / jobs, cpu.postgresAllMs() / jobs));
            // "other": Spark's own Java threads (main, DAG scheduler, task workers, RPC) and the bench's
            cpu.groupMs().forEach((g, ms) -> b.append(String.format(Locale.ROOT, " %s %.3f", g, ms / jobs)));
            b.append("; JVM native:");
            cpu.nativeMs().forEach((g, ms) -> b.append(String.format(Locale.ROOT, " %s %.2f", g, ms / jobs)));
            b.append(String.format(Locale.ROOT, "; allocated KB/job: all %.1f,", allocatedKb(null, jobs)));
            cpu.allocatedBytes().forEach((g, bytes) -> b.append(String.format(Locale.ROOT, " %s %.1f", g,
                    bytes / 1024.0 / jobs)));
            return b.toString();
        }
    }

    private static Run run(Variant v, int jobs, String url, String user, String password, int heapEvery)
            throws Exception {
        String variant = v.name().toLowerCase(Locale.ROOT);
        Path logDir = v == Variant.EVENTLOG ? Files.createTempDirectory("many-jobs-eventlog") : null;
        SparkConf conf = ListenerVariants.conf("many-jobs-" + variant, variant, logDir, url, user, password,
                "many-jobs").set("spark.sql.shuffle.partitions", "2");
        SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        List<Integer> heapAt = new ArrayList<>();
        List<Double> heapMb = new ArrayList<>();
        heapAt.add(0);
        heapMb.add(usedAfterGc(memory) / 1e6);
        double wall = 0;
        CpuMeter cpu = new CpuMeter(v == Variant.SPARKSCOPE ? database(url) : null);
        cpu.resume();
        long t0 = System.nanoTime();
        for (int i = 1; i <= jobs; i++) {
            spark.range(0, 4, 1, 1).selectExpr("id * 2 AS x").collectAsList();
            if (i % heapEvery == 0 || i == jobs) {
                wall += (System.nanoTime() - t0) / 1e6;
                cpu.pause();
                heapAt.add(i);
                heapMb.add(usedAfterGc(memory) / 1e6);
                cpu.resume();
                t0 = System.nanoTime();
            }
        }
        cpu.pause();
        cpu.close();
        spark.stop();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
        if (logDir != null) {
            try (var files = Files.walk(logDir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        return new Run(wall, heapAt, heapMb, cpu);
    }

    /** The database name of a {@code jdbc:postgresql://host:port/NAME?...} URL. */
    static String database(String url) {
        String rest = url.substring(url.lastIndexOf('/') + 1);
        int q = rest.indexOf('?');
        return q < 0 ? rest : rest.substring(0, q);
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 2; i++) {
            System.gc();
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (Exception e) {
            return "?";
        }
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static double min(List<Double> xs) {
        return xs.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double max(List<Double> xs) {
        return xs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
}
