package io.sparkscope.core.event;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An immutable map of names to longs in insertion order, held as two arrays. A streaming query reports the same
 * handful of names (its phases, its state store's metrics) in every batch, so batches of one query share one key
 * array ({@link #sharingKeys}) and each costs a {@code long[]}: about 100 bytes for seven phases instead of the
 * 500 a {@code LinkedHashMap} with boxed values takes. Equal to any {@link Map} with the same entries.
 */
public final class OrderedLongMap extends AbstractMap<String, Long> {
    public static final OrderedLongMap EMPTY = new OrderedLongMap(new String[0], new long[0]);

    private final String[] keys;
    private final long[] values;

    private OrderedLongMap(String[] keys, long[] values) {
        this.keys = keys;
        this.values = values;
    }

    /** A copy of {@code in} in its iteration order, null keys and values left out; at most {@code max} entries. */
    public static OrderedLongMap of(Map<String, Long> in, int max) {
        if (in instanceof OrderedLongMap m && m.size() <= max) {
            return m;
        }
        if (in == null || in.isEmpty()) {
            return EMPTY;
        }
        String[] k = new String[Math.min(in.size(), max)];
        long[] v = new long[k.length];
        int n = 0;
        for (Map.Entry<String, Long> e : in.entrySet()) {
            if (n == k.length) {
                break;
            }
            if (e.getKey() != null && e.getValue() != null) {
                k[n] = e.getKey();
                v[n] = e.getValue();
                n++;
            }
        }
        return n == k.length ? new OrderedLongMap(k, v) : new OrderedLongMap(Arrays.copyOf(k, n), Arrays.copyOf(v, n));
    }

    /** {@code map} with the key array of {@code previous} when both have the same keys in the same order. */
    public static OrderedLongMap sharingKeys(OrderedLongMap map, Map<String, Long> previous) {
        if (previous instanceof OrderedLongMap p && p.keys != map.keys && Arrays.equals(p.keys, map.keys)) {
            return new OrderedLongMap(p.keys, map.values);
        }
        return map;
    }

    @Override
    public int size() {
        return keys.length;
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    public Long get(Object key) {
        int i = indexOf(key);
        return i < 0 ? null : values[i];
    }

    private int indexOf(Object key) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public Set<Map.Entry<String, Long>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<String, Long>> iterator() {
                return new Iterator<>() {
                    private int i;

                    @Override
                    public boolean hasNext() {
                        return i < keys.length;
                    }

                    @Override
                    public Map.Entry<String, Long> next() {
                        if (i >= keys.length) {
                            throw new NoSuchElementException();
                        }
                        Map.Entry<String, Long> e = new SimpleImmutableEntry<>(keys[i], values[i]);
                        i++;
                        return e;
                    }
                };
            }

            @Override
            public int size() {
                return keys.length;
            }
        };
    }
}
