package io.sparkscope.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
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
    }

    void pause() {
        processNs += os.getProcessCpuTime() - startProcessNs;
        Map<Long, Long> now = threadCpu();
        now.forEach((id, ns) -> {
            long before = startThreadNs.getOrDefault(id, 0L);
            groupNs.merge(group(threadNames.get(id)), Math.max(0, ns - before), Long::sum);
        });
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
