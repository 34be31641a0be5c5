package io.sparkscope.core.eventlog;

import java.util.HashMap;
import java.util.Map;

/**
 * Shares equal strings that repeat on every task (executor ids, hosts, locality, task type), so the snapshot keeps
 * one copy instead of one per task. Bounded: past the limit strings pass through unshared.
 */
final class Interner {
    private static final int LIMIT = 100_000;
    private final Map<String, String> strings = new HashMap<>();

    String intern(String s) {
        if (s == null) {
            return null;
        }
        String known = strings.get(s);
        if (known != null) {
            return known;
        }
        if (strings.size() < LIMIT) {
            strings.put(s, s);
        }
        return s;
    }
}
