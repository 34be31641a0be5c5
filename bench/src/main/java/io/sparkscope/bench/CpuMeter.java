package io.sparkscope.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU used over a measured stretch of a benchmark: the JVM's own process CPU, split by thread group, and the CPU of the
 * PostgreSQL server processes. CPU per job hardly depends on how busy the rest of a shared machine is, unlike wall time,
 * so it is the figure to compare between code versions and variants.
 *
 * <p>PostgreSQL's CPU is read from {@code /proc/<pid>/stat} (utime + stime) of every process named {@code postgres},
 * sampled every 200 ms by a daemon thread, so a backend that exits during the stretch still counts with its last sample.
 * Two sums: the backends connected to the benchmark's own database (their process title names it: only the listener's
 * writes, whatever else runs on a shared server) and all PostgreSQL processes (also the WAL writer, checkpointer and
 * autovacuum the writes cause, but also other users of the same server).
 *
 * <p>Also, from {@code /proc/self/task}, the CPU of the JVM's own native threads: garbage collection ({@code gc}: G1's
 * "GC Thread#", "G1 Conc#", "G1 Refine#" and other G1 threads), the JIT compilers ({@code jit}) and the VM thread
 * ({@code vm}), which the process CPU includes but no Java thread shows; and the bytes each Java thread group allocated
 * ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}), which drives the GC's share and, unlike CPU, does
 * not depend on the load at all.
 */
final class CpuMeter implements AutoCloseable {
    private static final long TICK_NS = 10_000_000L; // USER_HZ = 100 on Linux

    private final String database;
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    /** pid -> ticks at the first sample of this meter (0 for processes started later). */
    private final Map<Integer, Long> pgFirst = new HashMap<>();
    /** pid -> ticks at the last sample. */
    private final Map<Integer, Long> pgLast = new HashMap<>();
    private final Map<Integer, Boolean> pgOwn = new HashMap<>();
    private final Thread sampler;
    private volatile boolean running = true;
    private boolean firstSample = true;

    private long processNs;
    private final Map<String, Long> groupNs = new TreeMap<>();
    private long startProcessNs;
    private Map<Long, Long> startThreadNs;
    private final Map<Long, String> threadNames = new HashMap<>();
    private final Map<String, Long> allocated = new TreeMap<>();
    private Map<Long, Long> startAllocated;
    private final Map<String, Long> nativeNs = new TreeMap<>();
    private Map<Integer, Long> startNative;
    private final Map<Integer, String> nativeNames = new HashMap<>();

    /** @param database the benchmark's database name (null: count no backend as its own) */
    CpuMeter(String database) {
        this.database = database;
        samplePostgres();
        sampler = new Thread(() -> {
            while (running) {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
                samplePostgres();
            }
        }, "bench-cpu-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Starts (or resumes) counting the JVM's CPU: pauses such as forced GCs between {@link #pause} and this are left out. */
    void resume() {
        startProcessNs = os.getProcessCpuTime();
        startThreadNs = threadCpu();
        startAllocated = threadAllocated();
        startNative = nativeCpu();
    }

    void pause() {
        processNs += os.getProcessCpuTime() - startProcessNs;
        Map<Long, Long> now = threadCpu();
        now.forEach((id, ns) -> {
            long before = startThreadNs.getOrDefault(id, 0L);
            groupNs.merge(group(threadNames.get(id)), Math.max(0, ns - before), Long::sum);
        });
        threadAllocated().forEach((id, bytes) -> allocated.merge(group(threadNames.get(id)),
                Math.max(0, bytes - startAllocated.getOrDefault(id, 0L)), Long::sum));
        nativeCpu().forEach((tid, ticks) -> {
            String g = nativeGroup(nativeNames.get(tid));
            if (g != null) {
                nativeNs.merge(g, Math.max(0, ticks - startNative.getOrDefault(tid, 0L)) * TICK_NS, Long::sum);
            }
        });
    }

    /** Java thread group (as {@link #groupMs}) -> bytes allocated over the measured stretch. */
    Map<String, Long> allocatedBytes() {
        return new TreeMap<>(allocated);
    }

    /**
     * The JVM's native threads -> CPU ms (10 ms ticks): {@code gc} in all, of it {@code gc-pause} (the parallel workers
     * of the stop-the-world collections), {@code gc-mark} (concurrent marking) and {@code gc-other} (refinement,
     * service); {@code jit}; {@code vm} (the VM thread, which also runs parts of each pause).
     */
    Map<String, Double> nativeMs() {
        Map<String, Double> out = new java.util.LinkedHashMap<>();
        long gc = 0;
        for (String g : List.of("gc-pause", "gc-mark", "gc-other")) {
            gc += nativeNs.getOrDefault(g, 0L);
        }
        out.put("gc", gc / 1e6);
        for (String g : List.of("gc-pause", "gc-mark", "gc-other", "jit", "vm")) {
            out.put(g, nativeNs.getOrDefault(g, 0L) / 1e6);
        }
        return out;
    }

    static String nativeGroup(String comm) {
        if (comm == null) {
            return null;
        }
        if (comm.startsWith("GC Thread")) {
            return "gc-pause";
        }
        if (comm.startsWith("G1 Conc") || comm.startsWith("G1 Main Marker")) {
            return "gc-mark";
        }
        if (comm.startsWith("G1 ")) {
            return "gc-other";
        }
        if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
            return "jit";
        }
        if (comm.equals("VM Thread")) {
            return "vm";
        }
        return null;
    }

    private Map<Long, Long> threadAllocated() {
        Map<Long, Long> out = new HashMap<>();
        if (threads instanceof com.sun.management.ThreadMXBean sun) {
            long[] ids = threads.getAllThreadIds();
            long[] bytes = sun.getThreadAllocatedBytes(ids);
            for (int i = 0; i < ids.length; i++) {
                if (bytes[i] >= 0) {
                    out.put(ids[i], bytes[i]);
                }
            }
        }
        return out;
    }

    /** tid -> utime + stime ticks of the JVM's native threads (GC, JIT, VM), from /proc/self/task. */
    private Map<Integer, Long> nativeCpu() {
        Map<Integer, Long> out = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            tasks.forEach(t -> {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    int close = stat.lastIndexOf(')');
                    String comm = stat.substring(stat.indexOf('(') + 1, close);
                    if (nativeGroup(comm) == null) {
                        return;
                    }
                    String[] fields = stat.substring(close + 2).split(" ");
                    int tid = Integer.parseInt(t.getFileName().toString());
                    nativeNames.put(tid, comm);
                    out.put(tid, Long.parseLong(fields[11]) + Long.parseLong(fields[12]));
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read
                }
            });
        } catch (IOException e) {
            // no /proc: native threads stay 0
        }
        return out;
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
        try {
            sampler.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        samplePostgres();
    }

    double processMs() {
        return processNs / 1e6;
    }

    /** Thread group (see {@link #group}) -> CPU ms. */
    Map<String, Double> groupMs() {
        Map<String, Double> out = new TreeMap<>();
        groupNs.forEach((g, ns) -> out.put(g, ns / 1e6));
        return out;
    }

    synchronized double postgresOwnMs() {
        return pgMs(true);
    }

    synchronized double postgresAllMs() {
        return pgMs(false);
    }

    private double pgMs(boolean ownOnly) {
        long ticks = 0;
        for (var e : pgLast.entrySet()) {
            if (!ownOnly || pgOwn.getOrDefault(e.getKey(), false)) {
                ticks += e.getValue() - pgFirst.getOrDefault(e.getKey(), 0L);
            }
        }
        return ticks * TICK_NS / 1e6;
    }

    /** The groups reported: Sparkscope's own threads, each Spark listener queue, and the rest. */
    static String group(String name) {
        if (name == null) {
            return "other";
        }
        if (name.startsWith("sparkscope")) {
            return name.startsWith("sparkscope-store") ? "sparkscope-pool" : name;
        }
        if (name.startsWith("spark-listener-group-")) {
            return "bus-" + name.substring("spark-listener-group-".length());
        }
        return "other";
    }

    private Map<Long, Long> threadCpu() {
        Map<Long, Long> out = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long ns = threads.getThreadCpuTime(info.getThreadId());
            if (ns >= 0) {
                out.put(info.getThreadId(), ns);
                threadNames.put(info.getThreadId(), info.getThreadName());
            }
        }
        return out;
    }

    private synchronized void samplePostgres() {
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.forEach(p -> {
                String f = p.getFileName().toString();
                if (f.isEmpty() || !Character.isDigit(f.charAt(0))) {
                    return;
                }
                try {
                    String stat = Files.readString(p.resolve("stat"));
                    int close = stat.lastIndexOf(')');
                    if (!stat.substring(stat.indexOf('(') + 1, close).equals("postgres")) {
                        return;
                    }
                    String[] fields = stat.substring(close + 2).split(" ");
                    // after "pid (comm) ": state is field 3, utime field 14, stime field 15
                    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    int pid = Integer.parseInt(f);
                    if (!pgFirst.containsKey(pid)) {
                        pgFirst.put(pid, firstSample ? ticks : 0L);
                    }
                    if (database != null && !pgOwn.getOrDefault(pid, false)) {
                        // read again until it names a database: a backend still starting shows the postmaster's title
                        String cmd = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8);
                        pgOwn.put(pid, cmd.contains(" " + database + " "));
                    }
                    pgLast.put(pid, ticks);
                } catch (IOException | RuntimeException e) {
                    // the process ended between the listing and the read: its last sample stands
                }
            });
        } catch (IOException e) {
            // no /proc: PostgreSQL's CPU stays 0
        }
        firstSample = false;
    }
}
