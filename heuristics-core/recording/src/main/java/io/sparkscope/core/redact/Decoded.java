package io.sparkscope.core.redact;

import java.text.Normalizer;
import java.util.Arrays;

/**
 * A text as a reader sees it, for finding credentials that are disguised: percent-encoding decoded
 * ({@code password%3Dhunter2}, {@code %70assword=}, twice encoded {@code %2570}), JSON and Java unicode escapes
 * decoded (an '=' written as backslash, u003d), invisible format characters removed
 * (zero-width space and joiners U+200B..U+200D, word joiner U+2060, byte-order mark U+FEFF, soft hyphen U+00AD, bidi
 * marks: everything Unicode calls a format character) and compatibility forms folded (NFKC: full-width
 * {@code ｐａｓｓｗｏｒｄ}, ligatures, mathematical letters become plain letters).
 *
 * <p>Each character of the decoded text remembers the part of the original it came from, so a credential found in the
 * decoded text is replaced in the original, encoded characters included.
 *
 * <p>Most texts need none of this; {@link #of} answers null for them after one cheap pass (a character comparison
 * each, and one normalisation check when the text has non-ASCII characters).
 */
final class Decoded {
    /** Escapes nested deeper than this are left as they are (an attacker's text, not a URL). */
    private static final int MAX_DECODINGS = 3;

    private final String text;
    /** For each character of {@link #text}: where its source starts and ends in the original. */
    private final int[] from;
    private final int[] to;

    private Decoded(String text, int[] from, int[] to) {
        this.text = text;
        this.from = from;
        this.to = to;
    }

    /** The decoded view of {@code original}, or null when it reads the same. */
    static Decoded of(String original) {
        if (!needed(original)) {
            return null;
        }
        Decoded d = identity(original);
        for (int round = 0; round < MAX_DECODINGS && hasEscape(d.text); round++) {
            d = d.then(unescaped(d.text));
        }
        d = d.then(folded(d.text));
        return d.text.equals(original) ? null : d;
    }

    /** The text with every disguise removed (a configuration key before its name is judged); itself when plain. */
    static String plain(String s) {
        if (s == null) {
            return null;
        }
        Decoded d = of(s);
        return d == null ? s : d.text;
    }

    String text() {
        return text;
    }

    /** Where the decoded character at {@code start} begins in the original. */
    int originalStart(int start) {
        return from[start];
    }

    /** Where the decoded range ending (exclusive) at {@code end} ends in the original. */
    int originalEnd(int end) {
        return to[end - 1];
    }

    private static boolean needed(String s) {
        boolean nonAscii = false;
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c == '%' || c == '\\') {
                if (escapeLength(s, i) > 0) {
                    return true;
                }
            } else if (c >= 0x80) {
                if (Character.getType(c) == Character.FORMAT) {
                    return true;
                }
                nonAscii = true;
            }
        }
        return nonAscii && !Normalizer.isNormalized(s, Normalizer.Form.NFKC);
    }

    private static boolean hasEscape(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if ((c == '%' || c == '\\') && escapeLength(s, i) > 0) {
                return true;
            }
        }
        return false;
    }

    /** The length of a {@code %XX} or {@code \\uXXXX} escape at {@code i}, or 0. */
    private static int escapeLength(String s, int i) {
        int n = s.length();
        char c = s.charAt(i);
        if (c == '%') {
            return i + 2 < n && hex(s.charAt(i + 1)) >= 0 && hex(s.charAt(i + 2)) >= 0 ? 3 : 0;
        }
        if (c == '\\' && i + 5 < n && s.charAt(i + 1) == 'u') {
            for (int k = i + 2; k < i + 6; k++) {
                if (hex(s.charAt(k)) < 0) {
                    return 0;
                }
            }
            return 6;
        }
        return 0;
    }

    private static Decoded identity(String s) {
        int n = s.length();
        int[] from = new int[n];
        int[] to = new int[n];
        for (int i = 0; i < n; i++) {
            from[i] = i;
            to[i] = i + 1;
        }
        return new Decoded(s, from, to);
    }

    /** This view followed by {@code next}, a view of this one's text: the result maps to this one's original. */
    private Decoded then(Decoded next) {
        int n = next.text.length();
        int[] f = new int[n];
        int[] t = new int[n];
        for (int i = 0; i < n; i++) {
            f[i] = from[next.from[i]];
            t[i] = to[next.to[i] - 1];
        }
        return new Decoded(next.text, f, t);
    }

    /**
     * One round of unescaping: {@code %XX} (multi-byte UTF-8 sequences become their character) and {@code \\uXXXX}
     * as JSON and Java write it; anything invalid stays as written.
     */
    private static Decoded unescaped(String s) {
        Builder b = new Builder(s.length());
        int n = s.length();
        int i = 0;
        while (i < n) {
            if (s.charAt(i) == '\\' && escapeLength(s, i) == 6) {
                b.add((char) Integer.parseInt(s.substring(i + 2, i + 6), 16), i, i + 6);
                i += 6;
                continue;
            }
            int lead = escapedByte(s, i);
            if (lead < 0) {
                b.add(s.charAt(i), i, i + 1);
                i++;
                continue;
            }
            int length = lead < 0x80 ? 1 : lead >= 0xF0 && lead < 0xF8 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
            int cp = length == 1 ? lead : length == 2 ? lead & 0x1F : length == 3 ? lead & 0x0F : lead & 0x07;
            int end = i + 3;
            for (int k = 1; k < length && cp >= 0; k++) {
                int cont = escapedByte(s, end);
                if (cont < 0x80 || cont >= 0xC0) {
                    cp = -1;
                } else {
                    cp = (cp << 6) | (cont & 0x3F);
                    end += 3;
                }
            }
            if (length == 0 || cp < 0 || !Character.isValidCodePoint(cp)) {
                b.add('%', i, i + 1); // not a character: keep the text as written
                i++;
                continue;
            }
            for (char c : Character.toChars(cp)) {
                b.add(c, i, end);
            }
            i = end;
        }
        return b.build();
    }

    /** The byte a {@code %XX} at {@code i} stands for, or -1. */
    private static int escapedByte(String s, int i) {
        if (i + 2 >= s.length() || s.charAt(i) != '%') {
            return -1;
        }
        int hi = hex(s.charAt(i + 1));
        int lo = hex(s.charAt(i + 2));
        return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        char l = (char) (c | 0x20);
        return l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
    }

    /**
     * Format characters dropped, every other character in its NFKC form. Folded one character at a time (not the
     * whole text at once) so each output character still knows its source; for finding ASCII words that is the same.
     */
    private static Decoded folded(String s) {
        Builder b = new Builder(s.length());
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c < 0x80) {
                b.add(c, i, i + 1);
                i++;
                continue;
            }
            int cp = s.codePointAt(i);
            int end = i + Character.charCount(cp);
            if (Character.getType(cp) != Character.FORMAT) {
                String one = s.substring(i, end);
                String f = Normalizer.isNormalized(one, Normalizer.Form.NFKC) ? one
                        : Normalizer.normalize(one, Normalizer.Form.NFKC);
                for (int k = 0; k < f.length(); k++) {
                    b.add(f.charAt(k), i, end);
                }
            }
            i = end;
        }
        return b.build();
    }

    private static final class Builder {
        private final StringBuilder sb;
        private int[] from;
        private int[] to;

        Builder(int capacity) {
            sb = new StringBuilder(capacity);
            from = new int[Math.max(capacity, 1)];
            to = new int[Math.max(capacity, 1)];
        }

        void add(char c, int start, int end) {
            int k = sb.length();
            if (k == from.length) {
                from = Arrays.copyOf(from, k * 2);
                to = Arrays.copyOf(to, k * 2);
            }
            sb.append(c);
            from[k] = start;
            to[k] = end;
        }

        Decoded build() {
            int n = sb.length();
            return new Decoded(sb.toString(), Arrays.copyOf(from, n), Arrays.copyOf(to, n));
        }
    }
}
