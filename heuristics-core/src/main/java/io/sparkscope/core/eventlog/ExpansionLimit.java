package io.sparkscope.core.eventlog;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts the bytes a decompressor gives and fails once they pass a limit ({@link ReaderLimits}). */
final class ExpansionLimit extends FilterInputStream {
    private final long limit;
    private long count;

    ExpansionLimit(InputStream in, long limit) {
        super(in);
        this.limit = limit;
    }

    @Override
    public int read() throws IOException {
        check(1);
        int b = super.read();
        if (b >= 0) {
            count++;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        check(1);
        // never hand out more than the limit allows, so the count stops exactly there
        int n = super.read(b, off, (int) Math.min(len, limit - count + 1));
        if (n > 0) {
            count += n;
        }
        return n;
    }

    private void check(int more) throws Exceeded {
        if (count + more > limit + 1 || count > limit) {
            throw new Exceeded(limit);
        }
    }

    /** The decompressed data passed the limit; the stream ends here. */
    static final class Exceeded extends IOException {
        private static final long serialVersionUID = 1L;

        Exceeded(long limit) {
            super("decompressed data passes " + limit + " bytes");
        }
    }
}
