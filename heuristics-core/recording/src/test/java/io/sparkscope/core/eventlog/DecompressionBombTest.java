package io.sparkscope.core.eventlog;

import com.github.luben.zstd.ZstdOutputStream;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.testing.SyntheticLog;
import net.jpountz.lz4.LZ4BlockOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.SnappyFramedOutputStream;
import org.xerial.snappy.SnappyOutputStream;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every codec the reader opens is capped: a file of a real log followed by megabytes of newlines (what a
 * "decompression bomb" is made of) stops with one line naming the file, and the events before the bomb are still
 * delivered. The caps are lowered here so the bombs stay small; one gzip bomb of 2 GiB is read with the defaults.
 */
class DecompressionBombTest {
    private static final long MIB = 1 << 20;
    /** Ratio cap from the first MiB on, 4 MiB in all: snappy (about 21 x at most) is stopped by the absolute cap. */
    private static final ReaderLimits LOW = new ReaderLimits(ReaderLimits.DEFAULT_MAX_STRING_BYTES,
            ReaderLimits.DEFAULT_MAX_EXPANSION_RATIO, 4 * MIB, MIB);
    private static final Pattern STOPPED = Pattern.compile(
            "(.*): decompressed data passes (\\d+) bytes \\((\\d+) x its compressed size\\); stopped reading, the rest"
                    + " of the file is not read \\((.*) data; the limits: (\\d+) x past the first (.*), (.*) in all; "
                    + "sparkscope.eventlog.maxExpansionRatio, sparkscope.eventlog.maxDecompressedBytes\\)");

    @TempDir
    Path dir;

    private interface Compressor {
        OutputStream wrap(OutputStream out) throws IOException;
    }

    /** As Spark writes each codec (its block sizes), and the framed formats people make by hand. */
    private static Map<String, Compressor> codecs() {
        Map<String, Compressor> c = new LinkedHashMap<>();
        c.put("app-bomb.gz", out -> new GZIPOutputStream(out, 1 << 16));
        c.put("app-bomb.zstd", ZstdOutputStream::new);
        c.put("app-bomb.lz4", out -> new LZ4BlockOutputStream(out, 32 * 1024));
        c.put("app-bomb.snappy", out -> new SnappyOutputStream(out, 32 * 1024));
        c.put("app-bomb-lz4-frame", LZ4FrameOutputStream::new);
        c.put("app-bomb-snappy-framed", SnappyFramedOutputStream::new);
        return c;
    }

    private static void newlines(OutputStream out, long n) throws IOException {
        byte[] chunk = new byte[1 << 16];
        Arrays.fill(chunk, (byte) '\n');
        for (long left = n; left > 0; left -= chunk.length) {
            out.write(chunk, 0, (int) Math.min(chunk.length, left));
        }
    }

    private record Read(List<SparkEvent> events, List<String> problems, ReadStats stats) {
    }

    private static Read read(Path file, ReaderLimits limits) {
        List<SparkEvent> events = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        ReadStats stats = new LogRead(events::add, problems::add, EventLogReader.DEFAULT_MAX_LINE_BYTES, limits, false)
                .run(EventLogSource.ofFile(file));
        return new Read(events, problems, stats);
    }

    @Test
    void everyCodecStopsABombWithOneLineAndKeepsTheEventsBeforeIt() throws Exception {
        List<String> log = RealisticLog.lines();
        Path plain = TestLogs.write(dir.resolve("app-plain"), log);
        Read expected = read(plain, LOW);
        assertEquals(List.of(), expected.problems());
        for (Map.Entry<String, Compressor> codec : codecs().entrySet()) {
            Path file = dir.resolve(codec.getKey());
            try (OutputStream out = codec.getValue().wrap(Files.newOutputStream(file))) {
                out.write((String.join("\n", log) + "\n").getBytes(StandardCharsets.UTF_8));
                newlines(out, 64 * MIB);
            }
            Read r = read(file, LOW);
            String last = r.problems().get(r.problems().size() - 1);
            Matcher m = STOPPED.matcher(last);
            assertTrue(m.matches(), codec.getKey() + ": " + r.problems());
            assertEquals(file.toString(), m.group(1));
            long passed = Long.parseLong(m.group(2));
            assertTrue(passed >= MIB && passed <= 4 * MIB, last);
            assertTrue(Long.parseLong(m.group(3)) > 1, last);
            assertEquals("100", m.group(5));
            assertEquals("1 MiB", m.group(6));
            assertEquals("4 MiB", m.group(7));
            assertTrue(r.stats().truncated(), last);
            assertTrue(r.stats().bytesRead() <= 4 * MIB + 1, codec.getKey() + " read " + r.stats().bytesRead());
            // what came before the bomb is read as if the bomb were not there
            assertEquals(expected.events(), r.events(), codec.getKey());
        }
    }

    /** Snappy never expands more than about 21 times: only the absolute cap stops it, and its line says so. */
    @Test
    void snappyIsStoppedByTheAbsoluteCap() throws Exception {
        Path file = dir.resolve("app-only-newlines.snappy");
        try (OutputStream out = new SnappyOutputStream(Files.newOutputStream(file), 32 * 1024)) {
            newlines(out, 16 * MIB);
        }
        Read r = read(file, LOW);
        Matcher m = STOPPED.matcher(r.problems().get(r.problems().size() - 1));
        assertTrue(m.matches(), r.problems().toString());
        assertEquals(4 * MIB, Long.parseLong(m.group(2)));
        assertTrue(Long.parseLong(m.group(3)) < ReaderLimits.DEFAULT_MAX_EXPANSION_RATIO, m.group(3));
        assertEquals("snappy", m.group(4));
        assertEquals(4 * MIB + 1, r.stats().bytesRead());
    }

    /**
     * A log as Spark writes it (thousands of tasks whose metrics differ a little) is not cut by the ratio, looked at
     * from its first MiB on: a real log compresses 4 to 30 times, this one up to about 60 (zstd).
     */
    @Test
    void aLogAsSparkWritesItStaysUnderTheRatioInEveryCodec() throws Exception {
        ReaderLimits early = new ReaderLimits(ReaderLimits.DEFAULT_MAX_STRING_BYTES,
                ReaderLimits.DEFAULT_MAX_EXPANSION_RATIO, ReaderLimits.DEFAULT_MAX_DECOMPRESSED_BYTES, MIB);
        SyntheticLog app = new SyntheticLog("app-20250101000000-0001", "steady", 1_735_689_600_000L, 4, 1_000);
        for (Map.Entry<String, Compressor> codec : codecs().entrySet()) {
            Path file = dir.resolve("real-" + codec.getKey());
            try (OutputStream out = codec.getValue().wrap(Files.newOutputStream(file))) {
                app.writeTo(out, Long.MAX_VALUE);
            }
            Read r = read(file, early);
            assertTrue(r.problems().stream().noneMatch(p -> p.contains("decompressed data passes")),
                    codec.getKey() + ": " + r.problems());
            assertEquals(0, r.stats().malformedLines(), codec.getKey());
            assertTrue(r.stats().bytesRead() > 4 * MIB, codec.getKey() + ": " + r.stats().bytesRead());
            assertEquals(app.lineCount(), r.stats().lines(), codec.getKey());
        }
    }

    /**
     * 2 GiB of newlines in a few MB of gzip (deflate at its best gives about 1 030 to 1): with the default limits
     * reading stops after 64 MiB, in a fraction of a second, rather than after 2 GB and half a minute.
     */
    @Test
    void aTwoGibGzipBombStopsAfterSixtyFourMibWithTheDefaults() throws Exception {
        // the way it is made gives valid gzip: a small one reads to its end, its checksum and length checked
        Path small = dir.resolve("small.gz");
        writeGzipOfNewlines(small, 3 * MIB);
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(small))) {
            byte[] all = in.readAllBytes();
            assertEquals(3 * MIB, all.length);
            assertTrue(all[0] == '\n' && all[all.length - 1] == '\n');
        }
        Path file = dir.resolve("app-2gib.gz");
        long size = 2L << 30;
        writeGzipOfNewlines(file, size);
        assertTrue(Files.size(file) < 5_000_000, "a bomb: " + Files.size(file));
        long t0 = System.nanoTime();
        List<String> problems = new ArrayList<>();
        ReadStats stats = EventLogReader.read(EventLogSource.ofFile(file), e -> { }, problems::add);
        Matcher m = STOPPED.matcher(problems.get(problems.size() - 1));
        assertTrue(m.matches(), problems.toString());
        assertEquals(64 * MIB, Long.parseLong(m.group(2)));
        assertTrue(Long.parseLong(m.group(3)) > 100, m.group(3));
        assertEquals("gzip", m.group(4));
        assertEquals("100", m.group(5));
        assertEquals("64 MiB", m.group(6));
        assertEquals("32 GiB", m.group(7));
        assertEquals(64 * MIB + 1, stats.bytesRead());
        assertTrue(System.nanoTime() - t0 < 20_000_000_000L, "stopped early");
    }

    /**
     * A valid gzip file of {@code size} newlines (a multiple of 1 MiB), written without compressing them all: once
     * the 32 KiB window holds only newlines, every further MiB compresses to the same bytes, so one such block is
     * made (with the window given as a dictionary) and written over and over.
     */
    static void writeGzipOfNewlines(Path file, long size) throws IOException {
        byte[] chunk = new byte[(int) MIB];
        Arrays.fill(chunk, (byte) '\n');
        byte[] first = deflate(chunk, null);
        byte[] next = deflate(chunk, Arrays.copyOf(chunk, 32 * 1024));
        CRC32 crc = new CRC32();
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            out.write(new byte[]{0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff});
            out.write(first);
            crc.update(chunk);
            for (long done = MIB; done < size; done += MIB) {
                out.write(next);
                crc.update(chunk);
            }
            out.write(new byte[]{3, 0}); // an empty last block
            writeIntLe(out, crc.getValue());
            writeIntLe(out, size);
        }
    }

    /** Raw deflate of {@code data} ending in a sync flush (byte-aligned, so such pieces can follow each other). */
    private static byte[] deflate(byte[] data, byte[] dictionary) {
        Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
        try {
            if (dictionary != null) {
                d.setDictionary(dictionary);
            }
            d.setInput(data);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            byte[] buf = new byte[1 << 16];
            int n;
            do { // a full buffer means there is more to flush
                n = d.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH);
                out.write(buf, 0, n);
            } while (n == buf.length);
            return out.toByteArray();
        } finally {
            d.end();
        }
    }

    private static void writeIntLe(OutputStream out, long v) throws IOException {
        for (int i = 0; i < 4; i++) {
            out.write((int) (v >>> (8 * i)) & 0xFF);
        }
    }
}
