package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonParser;
import com.github.luben.zstd.ZstdInputStream;
import io.sparkscope.core.event.SparkEvent;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Not a test: a manual benchmark of the reader against the floor, a bare Jackson token pass over the same bytes.
 * Run from heuristics-core/recording after {@code mvn test-compile}:
 * <pre>java -cp target/classes:target/test-classes:$(cat cp.txt) io.sparkscope.core.eventlog.ReaderBenchmark LOG</pre>
 * Reports both straight from the compressed file and from the bytes already decompressed in memory.
 */
public final class ReaderBenchmark {
    public static void main(String[] args) throws Exception {
        Path log = Path.of(args.length > 0 ? args[0]
                : "../../shared/eventlogs/other/spark-rapids-tools/gpu_oom_eventlog.zstd");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        EventLogSource source = EventLogReader.discover(log).get(0);
        byte[] plain;
        try (InputStream in = open(log)) {
            plain = in.readAllBytes();
        }
        Path plainFile = Files.createTempFile("bench", ".json");
        Files.write(plainFile, plain);
        EventLogSource plainSource = EventLogSource.ofFile(plainFile);
        double mb = plain.length / 1e6;
        System.out.printf("%s: %.1f MB of JSON%n", log.getFileName(), mb);
        // Interleaved rounds; best and median per variant, since a shared machine adds noise to single runs.
        long[][] t = new long[4][rounds];
        long tokens = 0;
        long events = 0;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            tokens = bareTokens(open(log));
            long t1 = System.nanoTime();
            events = readAll(source)[0];
            long t2 = System.nanoTime();
            bareTokens(new ByteArrayInputStream(plain));
            long t3 = System.nanoTime();
            readAll(plainSource);
            long t4 = System.nanoTime();
            t[0][r] = t1 - t0;
            t[1][r] = t2 - t1;
            t[2][r] = t3 - t2;
            t[3][r] = t4 - t3;
        }
        System.out.printf("%d tokens, %d events, %d rounds (first third dropped as warm-up)%n", tokens, events, rounds);
        String[] names = {"bare Jackson tokens, zstd file", "EventLogReader,     zstd file",
                "bare Jackson tokens, JSON in memory", "EventLogReader,     plain JSON file"};
        for (int v = 0; v < 4; v++) {
            long[] warm = java.util.Arrays.copyOfRange(t[v], rounds / 3, rounds);
            java.util.Arrays.sort(warm);
            long best = warm[0];
            long median = warm[warm.length / 2];
            System.out.printf("%-36s best %4.0f ms (%4.0f MB/s, %4.0f k events/s)  median %4.0f ms%n", names[v],
                    ms(best), mb / sec(best), events / sec(best) / 1e3, ms(median));
            if (v % 2 == 1) {
                long[] floor = java.util.Arrays.copyOfRange(t[v - 1], rounds / 3, rounds);
                java.util.Arrays.sort(floor);
                System.out.printf("%-36s best %.2f x  median %.2f x%n", "  reader / floor", (double) best / floor[0],
                        (double) median / floor[floor.length / 2]);
            }
        }
        Files.delete(plainFile);
    }

    private static InputStream open(Path log) throws IOException {
        InputStream raw = new BufferedInputStream(Files.newInputStream(log), 1 << 16);
        return log.toString().endsWith(".zstd") ? new ZstdInputStream(raw) : raw;
    }

    /** The floor: every token of every line, nothing built. */
    private static long bareTokens(InputStream in) throws IOException {
        long n = 0;
        try (JsonParser p = Json.FACTORY.createParser(in)) {
            while (p.nextToken() != null) {
                n++;
            }
        }
        return n;
    }

    private static long[] readAll(EventLogSource source) {
        long[] count = {0};
        List<String> problems = new java.util.ArrayList<>();
        EventLogReader.read(source, (SparkEvent e) -> count[0]++, problems::add);
        if (!problems.isEmpty()) {
            System.out.println("problems: " + problems);
        }
        return count;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static double sec(long nanos) {
        return nanos / 1e9;
    }
}
