package io.sparkscope.core.eventlog;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reader's size limits besides the line cap, so that no input can take it out of memory or time.
 *
 * @param maxStringBytes    a JSON string (plan text, description, property value) longer than this, in UTF-8
 *                          bytes, is cut to it with a warning
 * @param maxExpansionRatio a compressed log may expand to this many times its size on disk (but always to
 *                          {@link #MIN_DECOMPRESSED_LIMIT}); past it reading stops with a warning, so a small
 *                          "decompression bomb" cannot run for minutes
 */
record ReaderLimits(int maxStringBytes, long maxExpansionRatio) {
    static final String MAX_STRING_PROPERTY = "sparkscope.eventlog.maxStringBytes";
    static final String MAX_EXPANSION_PROPERTY = "sparkscope.eventlog.maxExpansionRatio";
    static final int DEFAULT_MAX_STRING_BYTES = 1 << 20;
    /** Real event logs compress 10 to 50 times (zstd, lz4, snappy); 1000 leaves room for very repetitive ones. */
    static final long DEFAULT_MAX_EXPANSION_RATIO = 1000;
    /** The least a compressed log may expand to, whatever its size: small logs are never cut. */
    static final long MIN_DECOMPRESSED_LIMIT = 64L << 20;

    static final ReaderLimits DEFAULTS = new ReaderLimits(DEFAULT_MAX_STRING_BYTES, DEFAULT_MAX_EXPANSION_RATIO);

    private static final Logger LOG = LoggerFactory.getLogger(ReaderLimits.class);

    ReaderLimits {
        // the marker a cut string gets must fit
        maxStringBytes = Math.max(64, maxStringBytes);
        maxExpansionRatio = Math.max(1, maxExpansionRatio);
    }

    /** The limits from the system properties, defaults where unset or not a positive number. */
    static ReaderLimits fromSystemProperties() {
        return new ReaderLimits(
                (int) Math.min(positive(MAX_STRING_PROPERTY, DEFAULT_MAX_STRING_BYTES), Integer.MAX_VALUE - 16),
                positive(MAX_EXPANSION_PROPERTY, DEFAULT_MAX_EXPANSION_RATIO));
    }

    /** Decompressed bytes allowed for a compressed file of {@code compressedBytes} on disk. */
    long maxDecompressedBytes(long compressedBytes) {
        long byRatio = compressedBytes > Long.MAX_VALUE / maxExpansionRatio ? Long.MAX_VALUE
                : compressedBytes * maxExpansionRatio;
        return Math.max(MIN_DECOMPRESSED_LIMIT, byRatio);
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
