package io.sparkscope.server.cli;

import io.sparkscope.core.testing.SyntheticLog;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.Locale;

/**
 * Event logs for bench/huge-log.sh, made with {@link SyntheticLog} (one line at a time, no memory):
 * <ul>
 *   <li>{@code write <file> <stages> <tasksPerStage>}: one complete log (100 × 10 000 = 1 000 000 tasks, 1.6 GB)</li>
 *   <li>{@code grow <dir> <appId> <stages> <tasksPerStage> <chunkLines> <pauseMs>}: the same log written into
 *       {@code dir/<appId>.inprogress} a chunk at a time with a pause after each, as a running driver writes it, then
 *       renamed without ".inprogress" as Spark does at the end; prints {@code last-write <epoch ms>} when done</li>
 *   <li>{@code many <dir> <n>}: n small complete logs (2 stages × 4 tasks)</li>
 * </ul>
 */
public final class HugeLogTool {
    private static final long T0 = 1_764_000_000_000L;

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "write" -> {
                SyntheticLog log = new SyntheticLog("application_1764000000000_9001", "huge", T0,
                        Integer.parseInt(args[2]), Integer.parseInt(args[3]));
                long bytes = log.writeTo(Path.of(args[1]));
                System.err.printf(Locale.ROOT, "%s: %,d tasks, %,d lines, %,d bytes%n", args[1], log.tasks(),
                        log.lineCount(), bytes);
            }
            case "grow" -> grow(Path.of(args[1]), args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Long.parseLong(args[5]), Long.parseLong(args[6]));
            case "many" -> {
                Path dir = Files.createDirectories(Path.of(args[1]));
                int n = Integer.parseInt(args[2]);
                for (int i = 0; i < n; i++) {
                    String id = String.format(Locale.ROOT, "application_1764000000000_%05d", i);
                    new SyntheticLog(id, "small-" + (i % 100), T0 + i * 60_000L, 2, 4).seed(i)
                            .writeTo(dir.resolve(id));
                }
                System.err.printf(Locale.ROOT, "%s: %,d logs%n", dir, n);
            }
            default -> throw new IllegalArgumentException("write | grow | many, not " + args[0]);
        }
    }

    private static void grow(Path dir, String appId, int stages, int tasksPerStage, long chunkLines, long pauseMs)
            throws Exception {
        SyntheticLog log = new SyntheticLog(appId, "growing", T0, stages, tasksPerStage);
        Path running = dir.resolve(appId + ".inprogress");
        Iterator<String> lines = log.lines();
        long written = 0;
        int chunks = 0;
        try (OutputStream out = Files.newOutputStream(running, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (lines.hasNext()) {
                written += SyntheticLog.write(lines, out, chunkLines, false);
                chunks++;
                if (lines.hasNext()) {
                    Thread.sleep(pauseMs);
                }
            }
        }
        Files.move(running, dir.resolve(appId), StandardCopyOption.ATOMIC_MOVE);
        long lastWrite = System.currentTimeMillis();
        System.err.printf(Locale.ROOT, "grew %s in %d chunks to %,d bytes%n", appId, chunks, written);
        System.out.println("last-write " + lastWrite);
    }
}
