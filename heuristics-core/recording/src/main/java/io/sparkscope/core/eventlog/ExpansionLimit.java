package io.sparkscope.core.eventlog;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A decompressor's output, counted against {@link ReaderLimits}: it fails once the bytes it gave pass the absolute
 * cap, or, past the first {@code ratioFreeBytes}, pass {@code maxExpansionRatio} times the compressed bytes the
 * decompressor has taken from the file so far. Every codec is read through one ({@link #open}).
 */
final class ExpansionLimit extends FilterInputStream {
    /**
     * The most one read hands out: decompressors give far less per call anyway, and a bound here keeps the check
     * close to the byte where a limit is passed.
     */
    private static final int MAX_READ = 1 << 20;

    private final Counted compressed;
    private final ReaderLimits limits;
    private long count;

    private ExpansionLimit(InputStream decompressed, Counted compressed, ReaderLimits limits) {
        super(decompressed);
        this.compressed = compressed;
        this.limits = limits;
    }

    /** The file's bytes decompressed by {@code codec}, with both caps. */
    static ExpansionLimit open(Codec codec, InputStream raw, ReaderLimits limits) throws IOException {
        Counted counted = new Counted(raw);
        return new ExpansionLimit(codec.open(counted), counted, limits);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n <= 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        check();
        if (len == 0) {
            return 0;
        }
        int n = super.read(b, off, (int) Math.min(len, allowed()));
        if (n > 0) {
            count += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        // skipping would decompress without counting
        byte[] sink = new byte[(int) Math.min(Math.max(n, 1), 1 << 16)];
        long done = 0;
        while (done < n) {
            int r = read(sink, 0, (int) Math.min(sink.length, n - done));
            if (r < 0) {
                break;
            }
            done += r;
        }
        return done;
    }

    /** Bytes the next read may give: a limit is passed by one byte at most before {@link #check} sees it. */
    private long allowed() {
        long room = limits.maxDecompressedBytes() - count + 1;
        if (count <= limits.ratioFreeBytes()) {
            room = Math.min(room, limits.ratioFreeBytes() - count + 1);
        }
        return Math.max(1, Math.min(room, MAX_READ));
    }

    private void check() throws Exceeded {
        if (count > limits.maxDecompressedBytes()) {
            throw new Exceeded(limits.maxDecompressedBytes(), count, compressed.count);
        }
        long byRatio = byRatio();
        if (count > limits.ratioFreeBytes() && count > byRatio) {
            throw new Exceeded(Math.max(limits.ratioFreeBytes(), byRatio), count, compressed.count);
        }
    }

    private long byRatio() {
        long c = compressed.count;
        long r = limits.maxExpansionRatio();
        return c > Long.MAX_VALUE / r ? Long.MAX_VALUE : c * r;
    }

    /**
     * The decompressed data passed a limit; the stream ends here.
     *
     * @param limit      the bytes it was allowed at that point
     * @param count      the bytes it gave
     * @param compressed the file's bytes the decompressor had taken to give them
     */
    static final class Exceeded extends IOException {
        private static final long serialVersionUID = 1L;
        final long limit;
        final long count;
        final long compressed;

        Exceeded(long limit, long count, long compressed) {
            super("decompressed data passes " + limit + " bytes (" + ratio(count, compressed)
                    + " x its compressed size)");
            this.limit = limit;
            this.count = count;
            this.compressed = compressed;
        }

        private static long ratio(long count, long compressed) {
            return compressed <= 0 ? count : count / compressed;
        }
    }

    /** Counts the bytes the decompressor takes from the file (read ahead included, which only lowers the ratio). */
    private static final class Counted extends FilterInputStream {
        long count;

        Counted(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long s = super.skip(n);
            if (s > 0) {
                count += s;
            }
            return s;
        }

        @Override
        public boolean markSupported() {
            return false; // a reset would count bytes twice
        }
    }
}
