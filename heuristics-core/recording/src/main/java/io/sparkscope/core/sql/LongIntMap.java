package io.sparkscope.core.sql;

import java.util.Arrays;

/**
 * An open-addressing map from long keys to int values, without boxing: the event-log reader asks it for every
 * accumulator of every task end while a SQL execution runs. Removal shifts the following entries back, so lookups
 * never meet tombstones.
 */
public final class LongIntMap {
    private static final long EMPTY = Long.MIN_VALUE;
    private long[] keys;
    private int[] values;
    private int size;
    /** Long.MIN_VALUE itself is a valid key, kept apart from the table. */
    private boolean hasMinKey;
    private int minKeyValue;

    public LongIntMap() {
        this(16);
    }

    public LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
        keys = new long[cap];
        Arrays.fill(keys, EMPTY);
        values = new int[cap];
    }

    public int size() {
        return size + (hasMinKey ? 1 : 0);
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    private static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    private int slot(long key) {
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (keys[i] != EMPTY && keys[i] != key) {
            i = (i + 1) & mask;
        }
        return i;
    }

    public boolean containsKey(long key) {
        if (key == EMPTY) {
            return hasMinKey;
        }
        return keys[slot(key)] == key;
    }

    /** The value, or {@code absent} when the key is not in the map. */
    public int get(long key, int absent) {
        if (key == EMPTY) {
            return hasMinKey ? minKeyValue : absent;
        }
        int i = slot(key);
        return keys[i] == key ? values[i] : absent;
    }

    public void put(long key, int value) {
        if (key == EMPTY) {
            hasMinKey = true;
            minKeyValue = value;
            return;
        }
        int i = slot(key);
        if (keys[i] != key) {
            if ((size + 1) * 2 > keys.length) {
                grow();
                i = slot(key);
            }
            keys[i] = key;
            size++;
        }
        values[i] = value;
    }

    /** Adds {@code delta} to the key's value (absent counts as 0) and returns the new value. */
    public int add(long key, int delta) {
        int v = get(key, 0) + delta;
        put(key, v);
        return v;
    }

    public void remove(long key) {
        if (key == EMPTY) {
            hasMinKey = false;
            return;
        }
        int mask = keys.length - 1;
        int i = slot(key);
        if (keys[i] != key) {
            return;
        }
        keys[i] = EMPTY;
        size--;
        // Move back every following entry that would no longer be found past the hole.
        int hole = i;
        for (int j = (i + 1) & mask; keys[j] != EMPTY; j = (j + 1) & mask) {
            int home = mix(keys[j]) & mask;
            boolean between = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
            if (!between) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                keys[j] = EMPTY;
                hole = j;
            }
        }
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        Arrays.fill(keys, EMPTY);
        values = new int[keys.length];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) {
                int j = slot(oldKeys[i]);
                keys[j] = oldKeys[i];
                values[j] = oldValues[i];
            }
        }
    }

    /** Keys in table order (for iteration by callers that do not care about order). */
    public long[] keys() {
        long[] out = new long[size()];
        int n = 0;
        for (long k : keys) {
            if (k != EMPTY) {
                out[n++] = k;
            }
        }
        if (hasMinKey) {
            out[n] = EMPTY;
        }
        return out;
    }
}
