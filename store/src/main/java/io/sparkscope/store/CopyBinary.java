package io.sparkscope.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes typed row values in PostgreSQL's binary COPY format ({@code COPY … FROM STDIN (FORMAT binary)}): a header,
 * then per row the field count and each field as its length and the type's binary representation, then a trailer.
 * The server then stores numbers and arrays as they come instead of parsing their text: a stage's 38 statistics rows
 * hold 266 floating-point values, and parsing them (and printing them on this side) was a good part of both sides'
 * work per new stage. Values are data, never SQL.
 *
 * <p>Values are the Java types {@link Column#bind} takes; each {@link Column.Type} is written as exactly its SQL
 * type ({@link Column.Type#sqlType}), which binary COPY requires. Text keeps the NUL policy of the other paths
 * (PostgreSQL text cannot hold U+0000: it becomes U+FFFD in text and text[] values).
 */
final class CopyBinary {
    /** Signature, flags (no OIDs), header extension length 0. */
    private static final byte[] HEADER = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0,
            0, 0, 0, 0, 0, 0, 0, 0};
    private static final int INT8_OID = 20;
    private static final int INT4_OID = 23;
    private static final int TEXT_OID = 25;
    private static final int FLOAT8_OID = 701;
    /** jsonb's binary form is a version byte, then the JSON text. */
    private static final int JSONB_VERSION = 1;

    private byte[] buf;
    private int len;

    CopyBinary(int capacity) {
        buf = new byte[Math.max(64, capacity)];
    }

    int length() {
        return len;
    }

    byte[] bytes() {
        return buf;
    }

    void reset() {
        len = 0;
    }

    void header() {
        put(HEADER, 0, HEADER.length);
    }

    void trailer() {
        putShort(-1);
    }

    /** One row: {@code appPk} first when not null (COPY straight into a child table), then the columns in order. */
    void row(Long appPk, List<? extends Column<?>> cols, Object[] row) {
        putShort(cols.size() + (appPk == null ? 0 : 1));
        if (appPk != null) {
            putInt(8);
            putLong(appPk);
        }
        for (int i = 0; i < cols.size(); i++) {
            value(cols.get(i).type(), row[i]);
        }
    }

    void value(Column.Type type, Object value) {
        if (value == null) {
            putInt(-1);
            return;
        }
        switch (type) {
            case TEXT -> text((String) value);
            case JSONB -> {
                byte[] b = ((String) value).getBytes(StandardCharsets.UTF_8);
                putInt(b.length + 1);
                putByte(JSONB_VERSION);
                put(b, 0, b.length);
            }
            case INT -> {
                putInt(4);
                putInt(((Number) value).intValue());
            }
            case BIGINT -> {
                putInt(8);
                putLong(((Number) value).longValue());
            }
            case FLOAT8 -> {
                putInt(8);
                putLong(Double.doubleToRawLongBits(((Number) value).doubleValue()));
            }
            case BOOL -> {
                putInt(1);
                putByte((Boolean) value ? 1 : 0);
            }
            case INT_ARRAY -> array((Object[]) value, INT4_OID);
            case BIGINT_ARRAY -> longArray((long[]) value);
            case FLOAT8_ARRAY -> array((Object[]) value, FLOAT8_OID);
            case TEXT_ARRAY -> array((Object[]) value, TEXT_OID);
        }
    }

    private void text(String s) {
        byte[] b = (s.indexOf('\u0000') >= 0 ? s.replace('\u0000', '\uFFFD') : s).getBytes(StandardCharsets.UTF_8);
        putInt(b.length);
        put(b, 0, b.length);
    }

    /** A one-dimensional bigint array without nulls, as {@link #array} writes one. */
    private void longArray(long[] a) {
        int body = a.length == 0 ? 12 : 20 + 12 * a.length;
        putInt(body);
        putInt(a.length == 0 ? 0 : 1);
        putInt(0); // no nulls
        putInt(INT8_OID);
        if (a.length > 0) {
            putInt(a.length);
            putInt(1);
        }
        for (long v : a) {
            putInt(8);
            putLong(v);
        }
    }

    /** A one-dimensional array (lower bound 1, as array literals give), or an empty one (no dimensions). */
    private void array(Object[] a, int elementOid) {
        int lengthAt = len;
        putInt(0); // the field's length, filled in below
        int start = len;
        boolean hasNull = false;
        for (Object o : a) {
            hasNull |= o == null;
        }
        putInt(a.length == 0 ? 0 : 1);
        putInt(hasNull ? 1 : 0);
        putInt(elementOid);
        if (a.length > 0) {
            putInt(a.length);
            putInt(1);
        }
        for (Object o : a) {
            if (o == null) {
                putInt(-1);
            } else if (elementOid == INT4_OID) {
                putInt(4);
                putInt(((Number) o).intValue());
            } else if (elementOid == FLOAT8_OID) {
                putInt(8);
                putLong(Double.doubleToRawLongBits(((Number) o).doubleValue()));
            } else {
                text((String) o);
            }
        }
        int fieldLength = len - start;
        buf[lengthAt] = (byte) (fieldLength >>> 24);
        buf[lengthAt + 1] = (byte) (fieldLength >>> 16);
        buf[lengthAt + 2] = (byte) (fieldLength >>> 8);
        buf[lengthAt + 3] = (byte) fieldLength;
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }

    private void put(byte[] b, int off, int n) {
        ensure(n);
        System.arraycopy(b, off, buf, len, n);
        len += n;
    }

    private void putByte(int v) {
        ensure(1);
        buf[len++] = (byte) v;
    }

    private void putShort(int v) {
        ensure(2);
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) v;
    }

    private void putInt(int v) {
        ensure(4);
        buf[len++] = (byte) (v >>> 24);
        buf[len++] = (byte) (v >>> 16);
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) v;
    }

    private void putLong(long v) {
        putInt((int) (v >>> 32));
        putInt((int) v);
    }
}
