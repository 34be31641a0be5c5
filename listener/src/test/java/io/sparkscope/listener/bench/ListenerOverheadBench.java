package io.sparkscope.listener.bench;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import io.sparkscope.listener.SparkscopeListener;
import io.sparkscope.store.TestDb;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Listener overhead benchmark (docs/benchmarks/listener-overhead.md), run by {@code bench/listener-overhead.sh}; not a test.
 *
 * <pre>
 *   overhead [tasks] [rounds]   alternating: no listener / event log / Sparkscope+PostgreSQL / Sparkscope, DB down
 *   drops    [tasks]            one big job with Sparkscope+PostgreSQL: Spark's listener-bus drops, ours, retained heap
 * </pre>
 *
 * Each variant gets its own SparkContext (local[2]), created and stopped in this JVM one after the other. The job
 * time excludes SparkContext start and stop; the stop (which includes Sparkscope's final flush and the event log's
 * close) is reported in its own column.
 */
public final class ListenerOverheadBench {

    enum Variant { NONE, EVENTLOG, PG, PG_DOWN }

    record Run(Variant v, int round, long startMs, long jobMs, long stopMs, long sparkDropped, long oursDropped,
               long posted, double busP50Us, double busP99Us, long busCount) {
    }

    private static String dbUrl;

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "overhead";
        switch (mode) {
            case "overhead" -> overhead(arg(args, 1, 20_000), arg(args, 2, 7));
            case "drops" -> drops(arg(args, 1, 200_000));
            default -> throw new IllegalArgumentException("mode: overhead | drops");
        }
        System.exit(0); // embedded PostgreSQL and leftover daemon threads
    }

    private static int arg(String[] a, int i, int def) {
        return a.length > i ? Integer.parseInt(a[i]) : def;
    }

    // ---------------------------------------------------------------------------------------------- overhead

    static void overhead(int tasks, int rounds) throws Exception {
        String db = TestDb.newDatabaseName();
        dbUrl = TestDb.url(db);
        System.out.printf(Locale.ROOT, "# overhead: local[2], 1 job of %d tasks per run, %d measured rounds "
                + "(+1 warm-up), order rotates per round; embedded PostgreSQL %s%n", tasks, rounds, dbUrl);
        Variant[] vs = Variant.values();
        List<Run> runs = new ArrayList<>();
        for (int r = 0; r <= rounds; r++) {
            for (int k = 0; k < vs.length; k++) {
                Variant v = vs[(k + r) % vs.length];
                Run run = runOnce(v, r, tasks, false);
                System.out.println(line(run) + (r == 0 ? "   (warm-up, not counted)" : ""));
                if (r > 0) {
                    runs.add(run);
                }
            }
        }
        Map<Variant, double[]> med = new EnumMap<>(Variant.class);
        for (Variant v : vs) {
            List<Run> rv = runs.stream().filter(x -> x.v == v).toList();
            med.put(v, new double[]{
                    median(rv.stream().mapToDouble(Run::jobMs).toArray()),
                    median(rv.stream().mapToDouble(Run::stopMs).toArray()),
                    median(rv.stream().mapToDouble(Run::startMs).toArray()),
                    rv.stream().mapToLong(Run::sparkDropped).max().orElse(0),
                    rv.stream().mapToLong(Run::oursDropped).max().orElse(0),
                    median(rv.stream().mapToDouble(Run::busP50Us).toArray()),
                    min(rv.stream().mapToDouble(Run::jobMs).toArray()),
                    max(rv.stream().mapToDouble(Run::jobMs).toArray())});
        }
        double base = med.get(Variant.NONE)[0];
        double baseTotal = base + med.get(Variant.NONE)[1];
        System.out.println();
        System.out.println("| variant | median job ms (min–max) | ratio vs none | median stop ms (incl. final flush) "
                + "| job+stop ratio | Spark drops (max) | Sparkscope drops (max) | bus-thread µs per event, p50 (median over runs) |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (Variant v : vs) {
            double[] m = med.get(v);
            System.out.printf(Locale.ROOT, "| %s | %.0f (%.0f–%.0f) | %.3f | %.0f | %.3f | %d | %d | %s |%n",
                    label(v), m[0], m[6], m[7], m[0] / base, m[1], (m[0] + m[1]) / baseTotal, (long) m[3],
                    (long) m[4], v == Variant.NONE ? "–" : String.format(Locale.ROOT, "%.1f", m[5]));
        }
        // paired ratios: each variant against the NONE run of the same round
        System.out.println();
        System.out.println("paired per-round ratios vs none (job time):");
        for (Variant v : vs) {
            if (v == Variant.NONE) {
                continue;
            }
            double[] ratios = IntStream.rangeClosed(1, rounds).mapToDouble(r -> {
                double n = runs.stream().filter(x -> x.v == Variant.NONE && x.round == r).findFirst().get().jobMs;
                double o = runs.stream().filter(x -> x.v == v && x.round == r).findFirst().get().jobMs;
                return o / n;
            }).toArray();
            StringBuilder sb = new StringBuilder();
            for (double x : ratios) {
                sb.append(String.format(Locale.ROOT, " %.3f", x));
            }
            System.out.printf(Locale.ROOT, "  %-28s median %.3f  [%s ]%n", label(v), median(ratios.clone()), sb);
        }
    }

    static String label(Variant v) {
        return switch (v) {
            case NONE -> "no listener";
            case EVENTLOG -> "Spark event log";
            case PG -> "Sparkscope + PostgreSQL";
            case PG_DOWN -> "Sparkscope, PostgreSQL down";
        };
    }

    static String line(Run r) {
        return String.format(Locale.ROOT, "round %d %-28s start %5d ms  job %6d ms  stop %5d ms  posted %d  "
                        + "sparkDropped %d  oursDropped %d  busP50 %.1f µs  busP99 %.1f µs (n=%d)",
                r.round, label(r.v), r.startMs, r.jobMs, r.stopMs, r.posted, r.sparkDropped, r.oursDropped,
                r.busP50Us, r.busP99Us, r.busCount);
    }

    static Run runOnce(Variant v, int round, int tasks, boolean keepTemp) throws Exception {
        Path tmp = Files.createTempDirectory("sparkscope-bench-");
        SparkConf conf = new SparkConf()
                .setMaster("local[2]")
                .setAppName("bench-" + v.name().toLowerCase(Locale.ROOT) + "-" + round)
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1");
        switch (v) {
            case NONE -> { }
            case EVENTLOG -> conf.set("spark.eventLog.enabled", "true")
                    .set("spark.eventLog.dir", tmp.toUri().toString());
            case PG -> listener(conf, tmp, dbUrl);
            // nothing listens on port 1: connection refused, as with a stopped server
            case PG_DOWN -> listener(conf, tmp, "jdbc:postgresql://127.0.0.1:1/sparkscope?connectTimeout=2");
        }
        System.gc();
        long t0 = System.nanoTime();
        JavaSparkContext jsc = new JavaSparkContext(conf);
        List<Integer> data = IntStream.range(0, tasks).boxed().toList();
        long t1 = System.nanoTime();
        long count = jsc.parallelize(data, tasks).map(x -> x).count();
        long t2 = System.nanoTime();
        if (count != tasks) {
            throw new IllegalStateException("count " + count);
        }
        SparkContext sc = jsc.sc();
        SparkscopeListener ours = v == Variant.PG || v == Variant.PG_DOWN ? SparkscopeListener.latest() : null;
        jsc.stop();
        long t3 = System.nanoTime();
        MetricRegistry reg = sc.listenerBus().metrics().metricRegistry();
        long sparkDropped = 0;
        for (Map.Entry<String, Counter> c : reg.getCounters().entrySet()) {
            if (c.getKey().endsWith("numDroppedEvents")) {
                sparkDropped += c.getValue().getCount();
            }
        }
        long posted = sc.listenerBus().metrics().numEventsPosted().getCount();
        String timed = switch (v) {
            case PG, PG_DOWN -> SparkscopeListener.class.getName();
            case EVENTLOG -> "org.apache.spark.scheduler.EventLoggingListener";
            case NONE -> "org.apache.spark.status.AppStatusListener";
        };
        Timer timer = reg.getTimers().get("listenerProcessingTime." + timed);
        double meanUs = 0, p99Us = 0;
        long n = 0;
        if (timer != null) {
            Snapshot s = timer.getSnapshot();
            meanUs = s.getMedian() / 1000.0;
            p99Us = s.get99thPercentile() / 1000.0;
            n = timer.getCount();
        }
        long oursDropped = ours == null ? 0 : ours.droppedEvents();
        if (!keepTemp) {
            deleteTree(tmp);
        }
        return new Run(v, round, ms(t1 - t0), ms(t2 - t1), ms(t3 - t2), sparkDropped, oursDropped, posted,
                meanUs, p99Us, n);
    }

    private static void listener(SparkConf conf, Path tmp, String url) {
        conf.set("spark.extraListeners", SparkscopeListener.class.getName())
                .set("spark.sparkscope.jdbc.url", url)
                .set("spark.sparkscope.spool.dir", tmp.resolve("spool").toString());
    }

    // ---------------------------------------------------------------------------------------------- drops + heap

    static void drops(int tasks) throws Exception {
        String db = TestDb.newDatabaseName();
        dbUrl = TestDb.url(db);
        long before = usedAfterGc();
        Run r = runOnce(Variant.PG, 1, tasks, false);
        System.out.println(line(r));
        System.out.printf(Locale.ROOT, "# drops at %d tasks: Spark listener bus numDroppedEvents (all queues) = %d, "
                + "Sparkscope droppedEvents() = %d, events posted = %d%n", tasks, r.sparkDropped, r.oursDropped,
                r.posted);
        long withListener = usedAfterGc();
        histogram();
        dropListenerReferences();
        long without = usedAfterGc();
        System.out.printf(Locale.ROOT, "# heap used after GC: before the run %.1f MB, after the run (listener still "
                        + "referenced) %.1f MB, after dropping the listener %.1f MB%n",
                mb(before), mb(withListener), mb(without));
        System.out.printf(Locale.ROOT, "# listener retained heap after the run = %.1f MB%n",
                mb(withListener - without));
    }

    /** Removes the two references that keep the finished listener alive: latest() and its JVM shutdown hook. */
    static void dropListenerReferences() throws Exception {
        Field latest = SparkscopeListener.class.getDeclaredField("latest");
        latest.setAccessible(true);
        latest.set(null, null);
        Class<?> hooksClass = Class.forName("java.lang.ApplicationShutdownHooks");
        Field hooksField = hooksClass.getDeclaredField("hooks");
        hooksField.setAccessible(true);
        @SuppressWarnings("unchecked")
        IdentityHashMap<Thread, Thread> hooks = (IdentityHashMap<Thread, Thread>) hooksField.get(null);
        int removed = 0;
        synchronized (hooksClass) {
            for (Thread t : new ArrayList<>(hooks.keySet())) {
                if (t.getName().equals("sparkscope-shutdown")) {
                    hooks.remove(t);
                    removed++;
                }
            }
        }
        System.out.println("# removed " + removed + " sparkscope-shutdown hook(s) and SparkscopeListener.latest");
    }

    static void histogram() throws IOException, InterruptedException {
        long pid = ProcessHandle.current().pid();
        Process p = new ProcessBuilder("jcmd", Long.toString(pid), "GC.class_histogram").redirectErrorStream(true)
                .start();
        List<String> lines = new String(p.getInputStream().readAllBytes()).lines().toList();
        p.waitFor();
        long bytes = 0;
        long instances = 0;
        List<String> ours = new ArrayList<>();
        for (String l : lines) {
            if (l.contains("io.sparkscope.")) {
                String[] f = l.trim().split("\\s+");
                instances += Long.parseLong(f[1]);
                bytes += Long.parseLong(f[2]);
                ours.add(l);
            }
        }
        System.out.printf(Locale.ROOT, "# jcmd GC.class_histogram, io.sparkscope.* classes (shallow): %d instances, "
                + "%.2f MB; top:%n", instances, bytes / 1048576.0);
        ours.stream().limit(12).forEach(l -> System.out.println("#   " + l.trim()));
    }

    static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    // ---------------------------------------------------------------------------------------------- helpers

    static double mb(long b) {
        return b / 1048576.0;
    }

    static long ms(long ns) {
        return ns / 1_000_000;
    }

    static double median(double[] a) {
        java.util.Arrays.sort(a);
        int n = a.length;
        return n == 0 ? 0 : n % 2 == 1 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
    }

    static double min(double[] a) {
        return java.util.Arrays.stream(a).min().orElse(0);
    }

    static double max(double[] a) {
        return java.util.Arrays.stream(a).max().orElse(0);
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // temp files
        }
    }

    private ListenerOverheadBench() {
    }
}
