package io.sparkscope.core.eventlog;

import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import net.jpountz.lz4.LZ4BlockInputStream;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.xerial.snappy.SnappyFramedInputStream;
import org.xerial.snappy.SnappyInputStream;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/**
 * The byte formats an event log can come in. The first four are what Spark writes with
 * {@code spark.eventLog.compress=true} (its {@code CompressionCodec} short names); the framed variants and gzip are
 * not written by Spark but are what people get when they compress a log by hand, so they are accepted when the
 * bytes say so.
 */
enum Codec {
    PLAIN(null, "plain JSON"),
    /** Spark's LZ4CompressionCodec: lz4-java's LZ4BlockOutputStream, concatenated streams allowed. */
    LZ4("lz4", "lz4"),
    /** Spark's LZFCompressionCodec (com.ning compress-lzf): no library here, reported, not read. */
    LZF("lzf", "lzf"),
    /** Spark's SnappyCompressionCodec: snappy-java's SnappyOutputStream (its own stream format, not framing). */
    SNAPPY("snappy", "snappy"),
    /** Spark's ZStdCompressionCodec: zstd-jni's ZstdOutputStream, possibly several concatenated frames. */
    ZSTD("zstd", "zstd"),
    LZ4_FRAME(null, "lz4 frame format"),
    SNAPPY_FRAMED(null, "snappy framing format"),
    GZIP("gz", "gzip");

    /** Short name as used in file suffixes, or null when the format has no suffix of its own. */
    final String shortName;
    final String description;

    Codec(String shortName, String description) {
        this.shortName = shortName;
        this.description = description;
    }

    /** Spark's codec short name for a file suffix, or null if the suffix is not a codec. */
    static String shortNameOf(String suffix) {
        return switch (suffix) {
            case "lz4", "lzf", "snappy", "zstd" -> suffix;
            case "zst" -> "zstd";
            case "gz" -> "gz";
            default -> null;
        };
    }

    static Codec ofShortName(String shortName) {
        if (shortName == null) {
            return PLAIN;
        }
        for (Codec c : values()) {
            if (shortName.equals(c.shortName)) {
                return c;
            }
        }
        return PLAIN;
    }

    /** Bytes needed by {@link #sniff}. */
    static final int SNIFF_BYTES = 16;

    /**
     * What the first bytes of a file say it is: a codec by its magic number, PLAIN when it starts like JSON, or
     * null when it looks like neither (binary garbage, some other text).
     */
    static Codec sniff(byte[] head, int len) {
        if (startsWith(head, len, 0x28, 0xB5, 0x2F, 0xFD)) {
            return ZSTD;
        }
        if (startsWith(head, len, 'L', 'Z', '4', 'B', 'l', 'o', 'c', 'k')) {
            return LZ4;
        }
        if (startsWith(head, len, 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0)) {
            return SNAPPY;
        }
        if (startsWith(head, len, 0xFF, 0x06, 0x00, 0x00, 's', 'N', 'a', 'P', 'p', 'Y')) {
            return SNAPPY_FRAMED;
        }
        if (startsWith(head, len, 0x04, 0x22, 0x4D, 0x18)) {
            return LZ4_FRAME;
        }
        if (startsWith(head, len, 0x1F, 0x8B)) {
            return GZIP;
        }
        if (len >= 3 && head[0] == 'Z' && head[1] == 'V' && (head[2] == 0 || head[2] == 1)) {
            return LZF;
        }
        int i = 0;
        if (startsWith(head, len, 0xEF, 0xBB, 0xBF)) {
            i = 3; // UTF-8 byte order mark
        }
        while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) {
            i++;
        }
        if (i < len && head[i] == '{') {
            return PLAIN;
        }
        return null;
    }

    /** Wraps raw file bytes in this format's decompressor. */
    InputStream open(InputStream raw) throws IOException {
        return switch (this) {
            case PLAIN -> raw;
            // Spark reads with concatenation allowed (disableConcatenationOfByteStream=false); the default
            // checksum is XXHash32 with lz4-java's default seed, the one Spark writes with.
            case LZ4 -> LZ4BlockInputStream.newBuilder().withStopOnEmptyBlock(false).build(raw);
            case SNAPPY -> new SnappyInputStream(raw);
            // Spark shares zstd-jni's RecyclingBufferPool the same way; the stream reads concatenated frames.
            case ZSTD -> new ZstdInputStreamNoFinalizer(raw, RecyclingBufferPool.INSTANCE);
            case LZ4_FRAME -> new LZ4FrameInputStream(raw);
            case SNAPPY_FRAMED -> new SnappyFramedInputStream(raw);
            case GZIP -> new GZIPInputStream(raw, 1 << 16);
            case LZF -> throw new IOException("lzf-compressed event logs are not supported (no LZF library); "
                    + "decompress the file first");
        };
    }

    private static boolean startsWith(byte[] head, int len, int... magic) {
        if (len < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if ((head[i] & 0xFF) != (magic[i] & 0xFF)) {
                return false;
            }
        }
        return true;
    }
}
