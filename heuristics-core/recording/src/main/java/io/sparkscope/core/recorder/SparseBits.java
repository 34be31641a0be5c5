package io.sparkscope.core.recorder;

import java.util.HashMap;

/**
 * A set of long values (task ids, partition indices) whose memory follows the number of distinct values seen, not
 * their size: the values are grouped in blocks of {@value #BLOCK_BITS} neighbours, each block a small bitmap created
 * when its first value arrives. Dense values (Spark's task ids and indices count up from 0) cost about one bit each;
 * scattered ones at most one block, about {@value #BYTES_PER_BLOCK} bytes, each. Negative values are values like any
 * other, so an index of -1 or 2³¹−1 from a damaged log is neither an error nor a huge allocation
 * (a {@link java.util.BitSet} would throw or allocate up to the value).
 */
final class SparseBits {
    static final int BLOCK_BITS = 512;
    /** A block's bitmap (8 longs and an array header) plus its map entry and boxed key, roughly. */
    static final int BYTES_PER_BLOCK = 64 + 16 + 48 + 16;
    private static final int WORDS = BLOCK_BITS / 64;

    private final HashMap<Long, long[]> blocks = new HashMap<>();
    private long size;
    /**
     * The block {@link #add} used last and its key (null: none yet). A stage's task ids and indices arrive nearly
     * in order, so most values fall in the block of the one before: no boxed key, no hash look-up.
     */
    private long[] lastBlock;
    private long lastBlockKey;

    /** @return true when the value was not in the set yet */
    boolean add(long value) {
        long key = Math.floorDiv(value, BLOCK_BITS);
        long[] words;
        if (lastBlock != null && key == lastBlockKey) {
            words = lastBlock;
        } else {
            words = blocks.computeIfAbsent(key, k -> new long[WORDS]);
            lastBlock = words;
            lastBlockKey = key;
        }
        int bit = (int) Math.floorMod(value, BLOCK_BITS);
        long mask = 1L << (bit & 63);
        if ((words[bit >>> 6] & mask) != 0) {
            return false;
        }
        words[bit >>> 6] |= mask;
        size++;
        return true;
    }

    boolean contains(long value) {
        long[] words = blocks.get(Math.floorDiv(value, BLOCK_BITS));
        if (words == null) {
            return false;
        }
        int bit = (int) Math.floorMod(value, BLOCK_BITS);
        return (words[bit >>> 6] & (1L << (bit & 63))) != 0;
    }

    /** Number of distinct values added. */
    long size() {
        return size;
    }

    /** Memory held, roughly. */
    long approxBytes() {
        return (long) blocks.size() * BYTES_PER_BLOCK;
    }
}
