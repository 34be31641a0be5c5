package io.sparkscope.core.eventlog;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Splits a byte stream into lines without decoding characters: each line is handed over as a slice of one reused
 * buffer, which Jackson parses directly as UTF-8. The buffer grows with the longest line up to
 * {@code maxLineBytes}; a longer line is skipped in chunks, so one giant line cannot exhaust the heap.
 *
 * <p>A read error (a decompressor finding truncated or corrupt data) ends the scan quietly: it is kept in
 * {@link #failure()} for the caller to report, and the partial last line is handed over as incomplete.
 */
final class LineScanner {
    interface Handler {
        /**
         * @param complete false for a last line that had no newline (it may be cut off)
         */
        void line(byte[] buf, int off, int len, long lineNo, boolean complete);

        /** A line longer than the limit was skipped; {@code length} counts its bytes (so far, if cut). */
        void oversized(long lineNo, long length, boolean complete);
    }

    private static final int INITIAL_BUFFER = 1 << 20;

    private final int maxLineBytes;
    private long bytesRead;
    private long lines;
    private long consumedTo;
    private IOException failure;

    LineScanner(int maxLineBytes) {
        this.maxLineBytes = Math.max(1, maxLineBytes);
    }

    long bytesRead() {
        return bytesRead;
    }

    long lines() {
        return lines;
    }

    /**
     * Bytes of the stream up to and including the newline of the last complete line handed over (valid inside a
     * handler's call): where a reader that stopped there would go on.
     */
    long consumedTo() {
        return consumedTo;
    }

    IOException failure() {
        return failure;
    }

    void scan(InputStream in, Handler handler) {
        int cap = (int) Math.min((long) maxLineBytes + 1, Integer.MAX_VALUE - 16);
        byte[] buf = new byte[Math.min(INITIAL_BUFFER, cap)];
        int start = 0;      // first byte of the current line
        int end = 0;        // end of valid data
        int scanned = 0;    // bytes before this are known not to be '\n' (within the current line)
        long base = 0;      // stream offset of buf[0]
        boolean skipping = false;
        long skipped = 0;
        while (true) {
            int nl;
            while ((nl = indexOfNewline(buf, scanned, end)) >= 0) {
                lines++;
                consumedTo = base + nl + 1;
                if (skipping) {
                    handler.oversized(lines, skipped + (nl - start), true);
                    skipping = false;
                } else {
                    int len = nl - start;
                    if (len > 0 && buf[nl - 1] == '\r') {
                        len--;
                    }
                    handler.line(buf, start, len, lines, true);
                }
                start = nl + 1;
                scanned = start;
            }
            int pending = end - start;
            if (skipping) {
                skipped += pending;
                base += end;
                start = end = scanned = 0;
            } else if (pending > maxLineBytes) {
                skipping = true;
                skipped = pending;
                base += end;
                start = end = scanned = 0;
            } else {
                if (start > 0) {
                    System.arraycopy(buf, start, buf, 0, pending);
                    base += start;
                    start = 0;
                    end = pending;
                }
                scanned = end;
                if (end == buf.length) {
                    // the line fills the buffer but is within the limit (buf.length <= cap = limit + 1)
                    byte[] bigger = new byte[(int) Math.min((long) buf.length * 2, cap)];
                    System.arraycopy(buf, 0, bigger, 0, end);
                    buf = bigger;
                }
            }
            int n;
            try {
                n = in.read(buf, end, buf.length - end);
            } catch (IOException e) {
                failure = e;
                n = -1;
            } catch (RuntimeException e) {
                // some decompressors signal corrupt input with unchecked exceptions (e.g. LZ4Exception)
                failure = new IOException(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), e);
                n = -1;
            }
            if (n < 0) {
                break;
            }
            bytesRead += n;
            end += n;
        }
        if (skipping) {
            lines++;
            handler.oversized(lines, skipped + (end - start), false);
        } else if (end > start) {
            lines++;
            handler.line(buf, start, end - start, lines, false);
        }
    }

    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /**
     * Eight bytes at a time ("has zero byte" bit trick on {@code word ^ '\n'*8}): the plain byte loop was a
     * tenth of the whole read time. The lowest flagged byte is exact; little-endian makes it the first in memory.
     */
    static int indexOfNewline(byte[] buf, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long w = (long) LONGS.get(buf, i) ^ NEWLINES;
            long hit = (w - ONES) & ~w & HIGHS;
            if (hit != 0) {
                return i + (Long.numberOfTrailingZeros(hit) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
