package io.sparkscope.core.eventlog;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A map that forgets its least recently used entries past a size, for what the reader remembers across lines
 * (a stage's task count, a job's submission time). Forgetting only loses a cross-check, never a value, so a log
 * with millions of stages costs a fixed amount of memory here.
 */
final class BoundedMap<K, V> extends LinkedHashMap<K, V> {
    private static final long serialVersionUID = 1L;
    private final int limit;

    BoundedMap(int limit) {
        super(16, 0.75f, true);
        this.limit = limit;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > limit;
    }
}
