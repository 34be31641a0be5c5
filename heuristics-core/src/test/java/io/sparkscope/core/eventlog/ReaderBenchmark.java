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
 * Run from heuristics-core after {@code mvn test-compile}:
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
        for (int r = 0; r < rounds; r++) {
            boolean report = r >= rounds - 5; // earlier rounds warm the JIT
            long t0 = System.nanoTime();
            long tokens = bareTokens(open(log));
            long t1 = System.nanoTime();
            long[] events = readAll(source);
            long t2 = System.nanoTime();
            long tokensMem = bareTokens(new ByteArrayInputStream(plain));
            long t3 = System.nanoTime();
            long[] eventsPlain = readAll(plainSource);
            long t4 = System.nanoTime();
            if (report) {
                System.out.printf("zstd file: bare tokens %d in %.0f ms (%.0f MB/s) | reader %d events in %.0f ms "
                                + "(%.0f MB/s, %.0f k events/s) ratio %.2f%n",
                        tokens, ms(t1 - t0), mb / sec(t1 - t0), events[0], ms(t2 - t1), mb / sec(t2 - t1),
                        events[0] / sec(t2 - t1) / 1e3, (double) (t2 - t1) / (t1 - t0));
                System.out.printf("plain:     bare tokens %d in %.0f ms (%.0f MB/s) | reader %d events in %.0f ms "
                                + "(%.0f MB/s, %.0f k events/s) ratio %.2f%n",
                        tokensMem, ms(t3 - t2), mb / sec(t3 - t2), eventsPlain[0], ms(t4 - t3), mb / sec(t4 - t3),
                        eventsPlain[0] / sec(t4 - t3) / 1e3, (double) (t4 - t3) / (t3 - t2));
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
