package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;

/**
 * Shares equal strings that repeat on every task (executor ids, hosts, locality, task type), so the snapshot keeps
 * one copy instead of one per task. Bounded: past the limit strings pass through unshared.
 *
 * <p>{@link #intern(JsonParser)} looks a string value up straight from the parser's character buffer, so a value
 * seen before allocates no {@code String} at all (an open-addressing table keyed by the characters).
 */
final class Interner {
    private static final int LIMIT = 100_000;
    /** Longer strings are returned unshared: a freak value must not stay in the table for the whole read. */
    private static final int MAX_LENGTH = 1_000;
    private String[] table = new String[64];
    private int[] hashes = new int[64];
    private int size;

    String intern(String s) {
        if (s == null || s.length() > MAX_LENGTH) {
            return s;
        }
        int h = s.hashCode();
        int mask = table.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            String known = table[i];
            if (known == null) {
                return add(s, h, i);
            }
            if (hashes[i] == h && known.equals(s)) {
                return known;
            }
        }
    }

    /** The text of the parser's current scalar value, interned; null for JSON null (as {@link Json#text}). */
    String intern(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            return intern(Json.text(p));
        }
        char[] buf = p.getTextCharacters();
        int off = p.getTextOffset();
        int len = p.getTextLength();
        if (len > MAX_LENGTH) {
            return new String(buf, off, len);
        }
        int h = 0; // String.hashCode of the same characters
        for (int i = off; i < off + len; i++) {
            h = 31 * h + buf[i];
        }
        int mask = table.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            String known = table[i];
            if (known == null) {
                return add(new String(buf, off, len), h, i);
            }
            if (hashes[i] == h && sameChars(known, buf, off, len)) {
                return known;
            }
        }
    }

    private static boolean sameChars(String s, char[] buf, int off, int len) {
        if (s.length() != len) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (s.charAt(i) != buf[off + i]) {
                return false;
            }
        }
        return true;
    }

    private String add(String s, int h, int slot) {
        if (size >= LIMIT) {
            return s;
        }
        table[slot] = s;
        hashes[slot] = h;
        if (++size * 2 > table.length) {
            rehash();
        }
        return s;
    }

    private void rehash() {
        String[] oldTable = table;
        int[] oldHashes = hashes;
        table = new String[oldTable.length * 2];
        hashes = new int[oldTable.length * 2];
        int mask = table.length - 1;
        for (int j = 0; j < oldTable.length; j++) {
            String s = oldTable[j];
            if (s != null) {
                int i = oldHashes[j] & mask;
                while (table[i] != null) {
                    i = (i + 1) & mask;
                }
                table[i] = s;
                hashes[i] = oldHashes[j];
            }
        }
    }
}
