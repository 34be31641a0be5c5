package io.sparkscope.core.eventlog;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reader's size limits besides the line cap, so that no input can take it out of memory or time.
 *
 * <p>A compressed log has two caps, checked as it is decompressed ({@link ExpansionLimit}). The ratio cap compares
 * the bytes decompressed so far with the compressed bytes read so far, not with the whole file: so a bomb is
 * stopped after {@code ratioFreeBytes} whatever the file's size, and a bomb appended to a real log is stopped too.
 * It cannot stop everything: snappy never expands more than about 21 times and lz4 about 250 times, so a large
 * enough file of either expands without bound at a ratio a real log may have; the absolute cap ends those.
 *
 * @param maxStringBytes       a JSON string (plan text, description, property value) longer than this, in UTF-8
 *                             bytes, is cut to it with a warning
 * @param maxExpansionRatio    past {@code ratioFreeBytes}, the decompressed bytes may be at most this many times the
 *                             compressed bytes they came from
 * @param maxDecompressedBytes the decompressed bytes one compressed file may give at all
 * @param ratioFreeBytes       decompressed bytes read before the ratio is looked at: small logs are never cut
 */
record ReaderLimits(int maxStringBytes, long maxExpansionRatio, long maxDecompressedBytes, long ratioFreeBytes) {
    static final String MAX_STRING_PROPERTY = "sparkscope.eventlog.maxStringBytes";
    static final String MAX_EXPANSION_PROPERTY = "sparkscope.eventlog.maxExpansionRatio";
    static final String MAX_DECOMPRESSED_PROPERTY = "sparkscope.eventlog.maxDecompressedBytes";
    static final int DEFAULT_MAX_STRING_BYTES = 1 << 20;
    /**
     * Real event logs compress 4 to 30 times (measured on the third-party logs with gzip -9, zstd -1 and -19, lz4);
     * a bomb made with gzip expands about 1 030 times, with lz4's block stream about 250, with zstd far more.
     */
    static final long DEFAULT_MAX_EXPANSION_RATIO = 100;
    /** Far above any real log (the largest seen are a few GiB), yet reached by a snappy bomb in minutes, not hours. */
    static final long DEFAULT_MAX_DECOMPRESSED_BYTES = 32L << 30;
    /** The least a compressed log may expand to, whatever its ratio: small logs are never cut. */
    static final long DEFAULT_RATIO_FREE_BYTES = 64L << 20;

    static final ReaderLimits DEFAULTS = new ReaderLimits(DEFAULT_MAX_STRING_BYTES, DEFAULT_MAX_EXPANSION_RATIO,
            DEFAULT_MAX_DECOMPRESSED_BYTES, DEFAULT_RATIO_FREE_BYTES);

    private static final Logger LOG = LoggerFactory.getLogger(ReaderLimits.class);

    ReaderLimits {
        // the marker a cut string gets must fit
        maxStringBytes = Math.max(64, maxStringBytes);
        maxExpansionRatio = Math.max(1, maxExpansionRatio);
        maxDecompressedBytes = Math.max(1, maxDecompressedBytes);
        ratioFreeBytes = Math.max(0, ratioFreeBytes);
    }

    /** The limits from the system properties, defaults where unset or not a positive number. */
    static ReaderLimits fromSystemProperties() {
        return new ReaderLimits(
                (int) Math.min(positive(MAX_STRING_PROPERTY, DEFAULT_MAX_STRING_BYTES), Integer.MAX_VALUE - 16),
                positive(MAX_EXPANSION_PROPERTY, DEFAULT_MAX_EXPANSION_RATIO),
                positive(MAX_DECOMPRESSED_PROPERTY, DEFAULT_MAX_DECOMPRESSED_BYTES),
                DEFAULT_RATIO_FREE_BYTES);
    }

    private static long positive(String property, long dflt) {
        String value = System.getProperty(property);
        if (value == null) {
            return dflt;
        }
        try {
            long parsed = Long.parseLong(value.trim());
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        LOG.warn("{}={} is not a positive number; using {}", property, value, dflt);
        return dflt;
    }
}
