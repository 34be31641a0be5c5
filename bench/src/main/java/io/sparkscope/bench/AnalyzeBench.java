package io.sparkscope.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.sun.management.GarbageCollectionNotificationInfo;
import io.sparkscope.core.eventlog.EventLogException;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.recorder.RecorderOptions;
import org.apache.spark.status.api.v1.TaskMetricDistributions;

import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * analyze vs Spark History Server rebuild vs a bare Jackson parse, on one event log, in one JVM.
 *
 * <pre>
 * AnalyzeBench [options] [LOG [WARMUP [ROUNDS]]]
 *   LOG      event log (default ../shared/eventlogs/other/spark-rapids-tools/gpu_oom_eventlog.zstd,
 *            relative to -Dsparkscope.repo.root or the working directory)
 *   WARMUP   warm-up rounds (default 10), ROUNDS measured rounds (default 10); each round runs (a), (b), (c)
 *   --only=abc...  run only these variants in the rounds (a, b, c, and l = (b') the floor line by line)
 *   --no-heap      skip the heap measurement
 *   --heap-only    only the heap measurement
 *   --no-cross-check  skip the untimed cross-check against the SHS rebuild (a huge log: bench/decode-threads.sh
 *                  measures only the floor here)
 * </pre>
 * (a) SHS: ReplayListenerBus + AppStatusListener over an in-memory ElementTrackingStore, then taskSummary for every
 * stage attempt (see {@link ShsRebuild}). (b) floor: zstd-jni + Jackson nextToken() over the decompressed stream.
 * (c) ours: EventLogReader.read into a Recorder, then snapshot().
 */
public final class AnalyzeBench {
    static final String DEFAULT_LOG = "../shared/eventlogs/other/spark-rapids-tools/gpu_oom_eventlog.zstd";
    static final double[] QUANTILES = {0.05, 0.25, 0.5, 0.75, 0.95};

    /** Results land here so the JIT cannot drop the work. */
    static volatile Object sink;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private AnalyzeBench() {
    }

    public static void main(String[] args) throws Exception {
        List<String> positional = new ArrayList<>();
        String only = "ablc";
        boolean heap = true;
        boolean rounds = true;
        boolean crossCheck = true;
        for (String a : args) {
            if (a.startsWith("--only=")) {
                only = a.substring("--only=".length());
            } else if (a.equals("--no-heap")) {
                heap = false;
            } else if (a.equals("--heap-only")) {
                rounds = false;
            } else if (a.equals("--no-cross-check")) {
                crossCheck = false;
            } else if (a.equals("-h") || a.equals("--help")) {
                System.out.println("usage: AnalyzeBench [--only=ablc] [--no-heap|--heap-only] [--no-cross-check] [LOG [WARMUP [ROUNDS]]]");
                return;
            } else if (a.startsWith("--")) {
                System.err.println("unknown option " + a);
                System.exit(64);
            } else {
                positional.add(a);
            }
        }
        Path log = resolve(positional.isEmpty() ? DEFAULT_LOG : positional.get(0));
        int warmup = positional.size() > 1 ? Integer.parseInt(positional.get(1)) : 10;
        int measured = positional.size() > 2 ? Integer.parseInt(positional.get(2)) : 10;
        if (!Files.isRegularFile(log)) {
            System.err.println("event log not found: " + log
                    + " (the benchmark needs ../shared/eventlogs next to the repository, or a LOG argument)");
            System.exit(2);
        }
        if (!log.getFileName().toString().endsWith(".zstd")) {
            System.err.println("this benchmark's floor (b) decompresses with zstd-jni; give a .zstd log: " + log);
            System.exit(2);
        }

        Runtime rt = Runtime.getRuntime();
        long compressed = Files.size(log);
        long[] jsonStats = floor(log, true);
        System.out.println("## analyze vs Spark History Server rebuild vs Jackson floor");
        System.out.println();
        System.out.printf(Locale.ROOT, "- log: `%s` (%.1f MB zstd, %.1f MB JSON, %,d lines)%n", log.getFileName(),
                compressed / 1e6, jsonStats[1] / 1e6, jsonStats[2]);
        System.out.printf(Locale.ROOT, "- machine: %d cores (availableProcessors), max heap %d MB, java %s (%s %s), %s %s%n",
                rt.availableProcessors(), rt.maxMemory() >> 20, System.getProperty("java.version"),
                System.getProperty("java.vm.name"), System.getProperty("java.vm.version"),
                System.getProperty("os.name"), System.getProperty("os.arch"));
        System.out.printf(Locale.ROOT, "- GC: %s; date %s; load average at start: %s%n", gcNames(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS), loadAverage());
        System.out.printf(Locale.ROOT, "- rounds: %d warm-up + %d measured, alternating %s; System.gc() before each run%n",
                warmup, measured, only);
        System.out.println();

        if (crossCheck) {
            crossCheck(log);
        }

        if (rounds) {
            rounds(log, warmup, measured, only);
        }
        if (heap) {
            heap(log);
        }
    }

    static Path resolve(String p) {
        Path path = Path.of(p);
        if (path.isAbsolute()) {
            return path;
        }
        String root = System.getProperty("sparkscope.repo.root");
        return (root == null ? path : Path.of(root).resolve(path)).toAbsolutePath().normalize();
    }

    // ---------------------------------------------------------------------------------------------- variants

    /** (a) Spark's History Server rebuild + taskSummary for every stage attempt. */
    static Object shs(Path log) {
        return ShsRebuild.run(log, QUANTILES);
    }

    /** (b) the floor: decompress with zstd-jni (as our reader does) and walk every JSON token. */
    static Object floor(Path log) {
        return floor(log, false);
    }

    /** {tokens, bytes, lines}; bytes and lines only when {@code measure} (an extra counting pass, untimed). */
    static long[] floor(Path log, boolean measure) {
        JsonFactory factory = JSON;
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(log), 1 << 16);
             InputStream in = new ZstdInputStreamNoFinalizer(raw, RecyclingBufferPool.INSTANCE)) {
            if (measure) {
                byte[] buf = new byte[1 << 16];
                long bytes = 0;
                long lines = 0;
                for (int n; (n = in.read(buf)) > 0; ) {
                    bytes += n;
                    for (int i = 0; i < n; i++) {
                        if (buf[i] == '\n') {
                            lines++;
                        }
                    }
                }
                return new long[] {0, bytes, lines};
            }
            long tokens = 0;
            try (JsonParser p = factory.createParser(in)) {
                for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                    tokens++;
                }
            }
            return new long[] {tokens, 0, 0};
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final JsonFactory JSON = new JsonFactory();

    /**
     * (b') informational: the floor done line by line, as a reader that survives bad lines must at least do:
     * split the decompressed stream at '\n' (byte loop), one JsonParser per line, nextToken() to the end.
     */
    static Object floorPerLine(Path log) {
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(log), 1 << 16);
             InputStream in = new ZstdInputStreamNoFinalizer(raw, RecyclingBufferPool.INSTANCE)) {
            byte[] buf = new byte[1 << 20];
            int start = 0;
            int end = 0;
            long tokens = 0;
            while (true) {
                int scanned = start;
                for (int i = scanned; i < end; i++) {
                    if (buf[i] == '\n') {
                        tokens += tokens(buf, start, i - start);
                        start = i + 1;
                    }
                }
                int pending = end - start;
                System.arraycopy(buf, start, buf, 0, pending);
                start = 0;
                end = pending;
                if (end == buf.length) {
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
                int n = in.read(buf, end, buf.length - end);
                if (n < 0) {
                    break;
                }
                end += n;
            }
            if (end > start) {
                tokens += tokens(buf, start, end - start);
            }
            return tokens;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long tokens(byte[] buf, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        long tokens = 0;
        try (JsonParser p = JSON.createParser(buf, off, len)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                tokens++;
            }
        }
        return tokens;
    }

    /** (c) ours: the event-log reader into a Recorder, then a snapshot. */
    static Object ours(Path log) {
        Recorder recorder = new Recorder(RecorderOptions.DEFAULTS);
        read(log, recorder);
        return recorder.snapshot();
    }

    static void read(Path log, Recorder recorder) {
        List<EventLogSource> sources;
        try {
            sources = EventLogReader.discover(log);
        } catch (EventLogException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        for (EventLogSource s : sources) {
            EventLogReader.read(s, recorder::onEvent, problem -> System.err.println("problem: " + problem));
        }
    }

    // ---------------------------------------------------------------------------------------------- rounds

    /**
     * @param cpuMs the main thread's CPU time: every variant reads and decodes on the calling thread, and on a machine
     *              shared with other work this is the steadier measure (wall time also counts the waits for a core)
     */
    record Run(double ms, long allocated, double cpuMs) {
    }

    static Run time(char variant, Path log) {
        gc();
        long a0 = THREADS.getCurrentThreadAllocatedBytes();
        long c0 = THREADS.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        Object r = switch (variant) {
            case 'a' -> shs(log);
            case 'b' -> floor(log);
            case 'c' -> ours(log);
            case 'l' -> floorPerLine(log);
            default -> throw new IllegalArgumentException("variant " + variant);
        };
        long t1 = System.nanoTime();
        long c1 = THREADS.getCurrentThreadCpuTime();
        long a1 = THREADS.getCurrentThreadAllocatedBytes();
        sink = r;
        sink = null;
        return new Run((t1 - t0) / 1e6, a1 - a0, (c1 - c0) / 1e6);
    }

    static void rounds(Path log, int warmup, int measured, String only) {
        String names = "ablc";
        List<List<Run>> runs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            runs.add(new ArrayList<>());
        }
        System.out.println("| round | (a) SHS rebuild ms | (b) Jackson floor ms | (b') floor per line ms | (c) ours ms |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (int round = 0; round < warmup + measured; round++) {
            boolean warm = round < warmup;
            String[] cells = {"-", "-", "-", "-"};
            for (int v = 0; v < 4; v++) {
                char variant = names.charAt(v);
                if (only.indexOf(variant) < 0) {
                    continue;
                }
                Run r = time(variant, log);
                cells[v] = String.format(Locale.ROOT, "%.0f", r.ms());
                if (!warm) {
                    runs.get(v).add(r);
                }
            }
            System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s |%n",
                    warm ? "warm-up " + (round + 1) : "" + (round - warmup + 1), cells[0], cells[1], cells[2], cells[3]);
        }
        System.out.println();
        double[] med = new double[4];
        long[] alloc = new long[4];
        for (int v = 0; v < 4; v++) {
            med[v] = median(runs.get(v).stream().mapToDouble(Run::ms).toArray());
            alloc[v] = (long) median(runs.get(v).stream().mapToDouble(Run::allocated).toArray());
        }
        System.out.println("| variant | median ms | min ms | main-thread CPU median ms | allocated per run (MB) |");
        System.out.println("|---|---:|---:|---:|---:|");
        String[] labels = {"(a) Spark History Server rebuild + taskSummary for every stage attempt",
                "(b) floor: zstd-jni + Jackson nextToken() over the whole stream",
                "(b') informational: the floor line by line (split at \\n, one JsonParser per line)",
                "(c) ours: EventLogReader → Recorder → snapshot()"};
        for (int v = 0; v < 4; v++) {
            if (!runs.get(v).isEmpty()) {
                double min = runs.get(v).stream().mapToDouble(Run::ms).min().orElse(Double.NaN);
                double cpu = median(runs.get(v).stream().mapToDouble(Run::cpuMs).toArray());
                System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f |%n", labels[v], med[v], min, cpu,
                        alloc[v] / 1e6);
            }
        }
        System.out.println();
        // Each round runs (a), (b), (c) back to back, so per-round ratios cancel slow drifts in machine load.
        if (!runs.get(0).isEmpty() && !runs.get(3).isEmpty()) {
            double ca = med[3] / med[0];
            System.out.printf(Locale.ROOT, "- (c)/(a) = %.2f on medians (target ≤ 0.50: %s); %.2f median of per-round ratios, %.2f on minimums%n",
                    ca, ca <= 0.5 ? "met" : "MISSED", pairedMedian(runs.get(3), runs.get(0)), min(runs.get(3)) / min(runs.get(0)));
        }
        if (!runs.get(1).isEmpty() && !runs.get(3).isEmpty()) {
            double cb = med[3] / med[1];
            System.out.printf(Locale.ROOT, "- (c)/(b) = %.2f on medians (target ≤ 2.00: %s); %.2f median of per-round ratios, %.2f on minimums%n",
                    cb, cb <= 2.0 ? "met" : "MISSED", pairedMedian(runs.get(3), runs.get(1)), min(runs.get(3)) / min(runs.get(1)));
        }
        if (!runs.get(1).isEmpty() && !runs.get(3).isEmpty()) {
            System.out.printf(Locale.ROOT, "- (c)/(b) on main-thread CPU time = %.2f on medians; %.2f median of per-round ratios%n",
                    median(runs.get(3).stream().mapToDouble(Run::cpuMs).toArray())
                            / median(runs.get(1).stream().mapToDouble(Run::cpuMs).toArray()),
                    pairedCpuMedian(runs.get(3), runs.get(1)));
        }
        if (!runs.get(2).isEmpty() && !runs.get(3).isEmpty()) {
            System.out.printf(Locale.ROOT, "- informational: (b')/(b) = %.2f (line framing), (c)/(b') = %.2f (decoding + recording)%n",
                    med[2] / med[1], med[3] / med[2]);
        }
        System.out.printf(Locale.ROOT, "- load average at end: %s%n", loadAverage());
        System.out.println();
    }

    static double min(List<Run> runs) {
        return runs.stream().mapToDouble(Run::ms).min().orElse(Double.NaN);
    }

    static double pairedCpuMedian(List<Run> num, List<Run> den) {
        double[] r = new double[Math.min(num.size(), den.size())];
        for (int i = 0; i < r.length; i++) {
            r[i] = num.get(i).cpuMs() / den.get(i).cpuMs();
        }
        return median(r);
    }

    static double pairedMedian(List<Run> num, List<Run> den) {
        double[] r = new double[Math.min(num.size(), den.size())];
        for (int i = 0; i < r.length; i++) {
            r[i] = num.get(i).ms() / den.get(i).ms();
        }
        return median(r);
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    static double median(double[] xs) {
        if (xs.length == 0) {
            return Double.NaN;
        }
        double[] s = xs.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    // ---------------------------------------------------------------------------------------------- check

    /** Untimed: (a) and (c) see the same stage attempts and the same executorRunTime quantiles. */
    static void crossCheck(Path log) {
        ShsRebuild.Result shs = ShsRebuild.run(log, QUANTILES);
        AppSnapshot snap = (AppSnapshot) ours(log);
        long[] tokens = floor(log, false);
        int compared = 0;
        int mismatched = 0;
        String firstMismatch = null;
        for (StageSummary s : snap.stages()) {
            TaskMetricDistributions d = shs.summaries().get(s.stageId() + "." + s.attemptId());
            TaskDistributions ours = s.taskSummary();
            if (d == null || ours == null || ours.count() == 0) {
                continue;
            }
            compared++;
            for (int i = 0; i < QUANTILES.length; i++) {
                double theirs = (Double) d.executorRunTime().apply(i);
                double mine = ours.at(DistributionMetric.EXECUTOR_RUN_TIME, QUANTILES[i]);
                if (theirs != mine) {
                    mismatched++;
                    if (firstMismatch == null) {
                        firstMismatch = "stage " + s.key() + " q" + QUANTILES[i] + ": SHS " + theirs + ", ours " + mine;
                    }
                    break;
                }
            }
        }
        System.out.printf(Locale.ROOT, "- work done: SHS store holds %d stage attempts (%d with a task summary); "
                        + "ours %d stage attempts, %,d tasks, %,d events; floor %,d JSON tokens%n",
                shs.stageAttempts(), shs.summaries().size(), snap.stages().size(), snap.totalTasks(),
                snap.eventCount(), tokens[0]);
        System.out.printf(Locale.ROOT, "- cross-check: executorRunTime quantiles (0.05…0.95) equal in %d of %d stage "
                + "attempts%s%n", compared - mismatched, compared, firstMismatch == null ? "" : "; first difference: " + firstMismatch);
        System.out.println();
    }

    // ---------------------------------------------------------------------------------------------- heap

    static void heap(Path log) {
        System.out.println("| heap (one run alone, after System.gc()) | (c) ours | (a) SHS store, for comparison |");
        System.out.println("|---|---:|---:|");
        long[] c = heapOf(() -> {
            Recorder recorder = new Recorder(RecorderOptions.DEFAULTS);
            read(log, recorder);
            return recorder;
        }, o -> ((Recorder) o).snapshot());
        long[] a = heapOf(() -> ShsRebuild.run(log, QUANTILES), o -> o);
        String[] rows = {"peak heap used during the run, MemoryPoolMXBean peaks summed, minus baseline (MB)",
                "highest heap use right after a GC during the run, minus baseline (MB)",
                "retained after the read (recorder / SHS store reachable, after GC), MB",
                "retained with the snapshot too (recorder + AppSnapshot), MB"};
        for (int i = 0; i < rows.length; i++) {
            System.out.printf(Locale.ROOT, "| %s | %.1f | %s |%n", rows[i], c[i] / 1e6,
                    i == 3 ? "-" : String.format(Locale.ROOT, "%.1f", a[i] / 1e6));
        }
        System.out.printf(Locale.ROOT, "%n(baseline heap used before the runs: %.1f MB)%n", c[4] / 1e6);
    }

    interface Work {
        Object run();
    }

    interface Then {
        Object apply(Object o);
    }

    /** {peak-baseline, maxAfterGc-baseline, retained, retainedWithNext, baseline}. */
    static long[] heapOf(Work work, Then next) {
        gc();
        long baseline = usedHeap();
        AtomicLong maxAfterGc = new AtomicLong(baseline);
        List<Runnable> unregister = watchGc(maxAfterGc);
        List<MemoryPoolMXBean> pools = heapPools();
        pools.forEach(MemoryPoolMXBean::resetPeakUsage);
        Object held = work.run();
        long peak = 0;
        for (MemoryPoolMXBean p : pools) {
            peak += p.getPeakUsage().getUsed();
        }
        unregister.forEach(Runnable::run);
        gc();
        long retained = usedHeap() - baseline;
        Object second = next.apply(held);
        gc();
        long retainedBoth = usedHeap() - baseline;
        Reference.reachabilityFence(held);
        Reference.reachabilityFence(second);
        return new long[] {peak - baseline, maxAfterGc.get() - baseline, retained, retainedBoth, baseline};
    }

    static List<MemoryPoolMXBean> heapPools() {
        List<MemoryPoolMXBean> out = new ArrayList<>();
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.isValid()) {
                out.add(p);
            }
        }
        return out;
    }

    static long usedHeap() {
        long used = 0;
        for (MemoryPoolMXBean p : heapPools()) {
            used += p.getUsage().getUsed();
        }
        return used;
    }

    /** Tracks the largest heap use right after any GC (an upper bound of the live set at that moment). */
    static List<Runnable> watchGc(AtomicLong max) {
        List<Runnable> undo = new ArrayList<>();
        NotificationListener listener = (n, h) -> {
            if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                GarbageCollectionNotificationInfo info =
                        GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                long used = 0;
                for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                    used += isHeapPool(e.getKey()) ? e.getValue().getUsed() : 0;
                }
                max.accumulateAndGet(used, Math::max);
            }
        };
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, null, null);
                undo.add(() -> {
                    try {
                        emitter.removeNotificationListener(listener);
                    } catch (Exception ignored) {
                        // already gone
                    }
                });
            }
        }
        return undo;
    }

    static boolean isHeapPool(String name) {
        for (MemoryPoolMXBean p : heapPools()) {
            if (p.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    static void gc() {
        LongSupplier used = AnalyzeBench::usedHeap;
        long before = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            long now = used.getAsLong();
            if (now >= before - (1 << 20)) {
                break;
            }
            before = now;
        }
    }

    static String gcNames() {
        List<String> names = new ArrayList<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            names.add(gc.getName());
        }
        return String.join(", ", names);
    }
}
