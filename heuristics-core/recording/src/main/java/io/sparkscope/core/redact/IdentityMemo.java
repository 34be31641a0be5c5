package io.sparkscope.core.redact;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * Results computed once per object instance. A live application's snapshots share most of their objects with the
 * previous snapshot (completed stages' summaries, plan trees, error strings), so keying by identity makes redacting
 * the next snapshot cost a lookup per object instead of a regex scan per string. Keys are held weakly: an entry goes
 * when the recorder drops its object. Thread-safe.
 */
final class IdentityMemo {
    /** A result equal to its key is stored as this marker: storing the key itself would keep it alive forever. */
    private static final Object SAME = new Object();

    private final ConcurrentHashMap<Object, Object> map = new ConcurrentHashMap<>();
    private final ReferenceQueue<Object> queue = new ReferenceQueue<>();
    private final int maxEntries;

    IdentityMemo(int maxEntries) {
        this.maxEntries = maxEntries;
    }

    @SuppressWarnings("unchecked")
    <T> T apply(T key, UnaryOperator<T> compute) {
        expunge();
        Object v = map.get(new Probe(key));
        if (v != null) {
            return v == SAME ? key : (T) v;
        }
        T result = compute.apply(key);
        if (map.size() >= maxEntries) {
            map.clear(); // a safety bound only: weak keys normally keep it at the size of what is alive
        }
        map.put(new Ref(key, queue), result == key ? SAME : result);
        return result;
    }

    private void expunge() {
        for (Object r; (r = queue.poll()) != null; ) {
            map.remove(r);
        }
    }

    /** A stored key: equal to itself, and to a key or probe of the same live object. */
    private static final class Ref extends WeakReference<Object> {
        private final int hash;

        Ref(Object referent, ReferenceQueue<Object> q) {
            super(referent, q);
            this.hash = System.identityHashCode(referent);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            Object mine = get();
            return mine != null && o instanceof Ref r && r.get() == mine;
        }
    }

    /** A lookup key: not a reference object, so a lookup allocates nothing the collector must track. */
    private static final class Probe {
        private final Object referent;

        Probe(Object referent) {
            this.referent = referent;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(referent);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Ref r && r.get() == referent;
        }
    }
}
