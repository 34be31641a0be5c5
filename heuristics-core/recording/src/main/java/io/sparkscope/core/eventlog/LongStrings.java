package io.sparkscope.core.eventlog;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Cuts over-long JSON strings of one line in place, before the line is parsed. A 50 MB string (a plan, a
 * classpath) under the line-length cap would otherwise become a parser buffer, a {@code String} and a copy in
 * the snapshot, several times its size on the heap; cut, it costs its first {@code maxBytes}. Spark itself
 * shortens plan text the same way ({@code spark.sql.maxPlanStringLength}).
 *
 * <p>Works on bytes: a string is cut at a character boundary (never inside a UTF-8 sequence or an escape), so
 * the line stays valid JSON, and gets {@link #MARKER} at its end. Lines that are not valid JSON are left for the
 * parser to report. Only lines longer than {@code maxBytes} can hold such a string, so normal lines never come
 * here.
 */
final class LongStrings {
    /** Appended to a cut string, so a reader of the text sees that it is not whole. */
    static final String MARKER = " …[truncated]";
    private static final byte[] MARKER_BYTES = MARKER.getBytes(StandardCharsets.UTF_8);
    private static final int SHOWN_KEY_BYTES = 60;

    private LongStrings() {
    }

    /**
     * Cuts every string (key or value) of {@code b[off, off+len)} whose content is longer than {@code maxBytes}
     * to at most {@code maxBytes} bytes including the marker, adding a warning per cut to {@code warnings}.
     *
     * @return the line's new length (its bytes stay at {@code off})
     */
    static int cut(byte[] b, int off, int len, int maxBytes, List<String> warnings) {
        int end = off + len;
        int keep = Math.max(0, maxBytes - MARKER_BYTES.length);
        int r = off;
        int w = off;
        String lastKey = null;
        String eventType = null;
        boolean nextIsEventType = false;
        while (r < end) {
            if (b[r] != '"') {
                b[w++] = b[r++];
                continue;
            }
            b[w++] = b[r++];
            int rs = r;          // content start, reading
            int ws = w;          // content start, writing
            int safe = 0;        // content bytes up to the last character boundary within keep
            boolean cut = false;
            while (r < end && b[r] != '"') {
                byte x = b[r];
                int unit = x == '\\' ? (r + 1 < end && b[r + 1] == 'u' ? 6 : 2) : 1;
                if ((x & 0xC0) != 0x80 && r - rs <= keep) {
                    safe = r - rs;
                }
                unit = Math.min(unit, end - r);
                if (!cut) {
                    System.arraycopy(b, r, b, w, unit);
                    w += unit;
                }
                r += unit;
                if (!cut && r - rs > maxBytes) {
                    cut = true;
                    w = ws + safe;
                    System.arraycopy(MARKER_BYTES, 0, b, w, MARKER_BYTES.length);
                    w += MARKER_BYTES.length;
                }
            }
            long contentBytes = r - rs;
            int written = w - ws;
            if (r < end) {
                b[w++] = b[r++]; // the closing quote
            }
            boolean isKey = followedByColon(b, r, end);
            if (cut) {
                String field = isKey ? "(a field name)" : lastKey == null ? "?" : lastKey;
                warnings.add((eventType == null ? "event" : eventType) + " field \"" + field + "\": text of "
                        + contentBytes + " bytes is longer than the " + maxBytes
                        + "-byte limit (sparkscope.eventlog.maxStringBytes); cut to " + written
                        + " bytes");
            }
            if (isKey) {
                lastKey = text(b, ws, Math.min(written, SHOWN_KEY_BYTES));
                nextIsEventType = "Event".equals(lastKey);
            } else if (nextIsEventType) {
                eventType = text(b, ws, Math.min(written, SHOWN_KEY_BYTES));
                int dot = eventType.lastIndexOf('.');
                if (dot >= 0) {
                    eventType = eventType.substring(dot + 1);
                }
                nextIsEventType = false;
            }
        }
        return w - off;
    }

    private static boolean followedByColon(byte[] b, int from, int end) {
        for (int i = from; i < end; i++) {
            byte c = b[i];
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return c == ':';
            }
        }
        return false;
    }

    private static String text(byte[] b, int from, int len) {
        return FieldChecks.shown(new String(b, from, Math.max(0, len), StandardCharsets.UTF_8));
    }
}
