package io.sparkscope.server.web.page;

/**
 * An HTML string builder where escaping is the default: {@link #t} writes text (escaped), {@link #a} writes an
 * attribute value (escaped, for use inside double quotes), and only {@link #raw} writes markup — callers pass it
 * compile-time constants, never data. That single rule is what keeps user-controlled strings (application names,
 * users, config values, failure reasons) from becoming markup.
 *
 * <p>Every character outside ASCII is written as a numeric character reference ({@code —} → {@code &#8212;}). The
 * page then stays a one-byte-per-char (Latin-1) Java string, which is appended and UTF-8-encoded as plain byte
 * copies; a single "—" would otherwise turn the whole 100 kB page into UTF-16 and make building and encoding it
 * several times slower (it was a third of the search page's CPU time). Browsers show the same text.
 */
public final class Html {
    /**
     * The page as bytes: every character written is ASCII (the class's rule), so one byte per character, and runs of
     * text are copied in bulk ({@link String#getBytes(int, int, byte[], int)} is an array copy for a Latin-1 string;
     * JDK 17's StringBuilder copies a substring char by char).
     */
    private byte[] buf;

    /** The ASCII characters text and attribute values write as entities: one table look-up per char, not five tests. */
    private static final boolean[] ESCAPED = new boolean[0x80];

    static {
        for (char c : new char[] {'<', '>', '&', '"', '\''}) {
            ESCAPED[c] = true;
        }
    }
    private int len;

    public Html() {
        this(16 * 1024);
    }

    /**
     * @param capacity the bytes to start with: a page that knows it is large (the search page's ~100 kB) asks for that
     *                 at once instead of growing 16, 32, 64, 128 kB and copying the page at each step
     */
    public Html(int capacity) {
        buf = new byte[Math.max(capacity, 64)];
    }

    /**
     * Trusted markup converted once: a constant of the view, for fragments written once per table row, so the page
     * does not scan the same literal for non-ASCII characters 50 times (see {@link #raw(Markup)}).
     */
    public static final class Markup {
        private final byte[] bytes;

        private Markup(byte[] bytes) {
            this.bytes = bytes;
        }
    }

    /** A literal of markup as a {@link Markup}: its non-ASCII characters become character references, as in raw. */
    public static Markup markup(String literal) {
        return new Markup(new Html(literal.length() + 16).raw(literal).utf8());
    }

    /** Trusted markup made by {@link #markup}: one array copy. */
    public Html raw(Markup markup) {
        byte[] b = markup.bytes;
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
        return this;
    }

    /**
     * Trusted markup: string literals of this package only (non-ASCII characters become character references). The
     * scan is a char loop and the copy one array copy per ASCII run (a map of converted literals was slower: its
     * look-up cost more than scanning a 30-character literal).
     */
    public Html raw(String markup) {
        return writeAscii(markup);
    }

    private Html writeAscii(String markup) {
        int n = markup.length();
        int clean = 0; // markup[clean, i) is ASCII, copied in one go
        for (int i = 0; i < n; i++) {
            if (markup.charAt(i) >= 0x80) {
                copy(markup, clean, i);
                i += characterReference(markup, i) - 1;
                clean = i + 1;
            }
        }
        copy(markup, clean, n);
        return this;
    }

    /**
     * Static text of a page template (src/main/jte), trusted as {@link #raw(String)} is, except that a line break and
     * the indentation after it are left out: templates are indented for reading while the page keeps the compact
     * markup it had when it was written by code (a space wanted where a line breaks goes before the break, or in
     * {@code ${" "}}).
     */
    public Html template(String text) {
        int n = text.length();
        int clean = 0; // text[clean, i) is ASCII to keep, copied in one go
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if ((char) (c - 0x20) < 0x60) { // printable ASCII, the common case: one test
                continue;
            }
            if (c == '\n' || c == '\r') {
                copy(text, clean, i);
                while (i + 1 < n && (text.charAt(i + 1) == ' ' || text.charAt(i + 1) == '\t'
                        || text.charAt(i + 1) == '\n' || text.charAt(i + 1) == '\r')) {
                    i++;
                }
                clean = i + 1;
            } else if (c >= 0x80) {
                copy(text, clean, i);
                i += characterReference(text, i) - 1;
                clean = i + 1;
            }
        }
        copy(text, clean, n);
        return this;
    }

    /** Text content, escaped. Null prints nothing. */
    public Html t(Object value) {
        if (value != null) {
            text(String.valueOf(value));
        }
        return this;
    }

    /** Text content, escaped. Null prints nothing. */
    public Html t(String value) {
        if (value != null) {
            text(value);
        }
        return this;
    }

    /** A whole number (digits need no escaping), written without making a String of it. */
    public Html t(long value) {
        ensure(20);
        if (value < 0) {
            if (value == Long.MIN_VALUE) {
                return raw(Long.toString(value));
            }
            buf[len++] = '-';
            value = -value;
        }
        int digits = 1;
        for (long v = value; v >= 10; v /= 10) {
            digits++;
        }
        for (int i = len + digits - 1; i >= len; i--) {
            buf[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        len += digits;
        return this;
    }

    /** As {@link #t(long)} (an int argument would otherwise pick {@link #t(Object)} and box). */
    public Html t(int value) {
        return t((long) value);
    }

    /** One character as text (without this overload a char would print as its code through {@link #t(int)}). */
    public Html t(char value) {
        return text(String.valueOf(value));
    }

    /** An attribute value (the caller writes the surrounding double quotes), escaped. */
    public Html a(Object value) {
        return t(value);
    }

    /** An attribute value, escaped. */
    public Html a(String value) {
        return t(value);
    }

    /** A whole-number attribute value. */
    public Html a(long value) {
        return t(value);
    }

    /** A whole-number attribute value. */
    public Html a(int value) {
        return t((long) value);
    }

    /** {@code <tag class="cls">text</tag>} with text escaped. */
    public Html el(String tag, String cls, Object text) {
        ascii('<');
        raw(tag);
        if (cls != null) {
            raw(" class=\"").raw(cls).ascii('"');
        }
        ascii('>');
        t(text);
        raw("</").raw(tag).ascii('>');
        return this;
    }

    /** {@code <a href="url">text</a>}; url is escaped as an attribute (our URLs are built by {@link Urls}). */
    public Html link(String url, Object text) {
        raw("<a href=\"");
        t(url);
        raw("\">");
        t(text);
        raw("</a>");
        return this;
    }

    @Override
    public String toString() {
        return new String(buf, 0, len, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** The page as UTF-8 (which is its ASCII bytes), without making a String of it first. */
    public byte[] utf8() {
        return java.util.Arrays.copyOf(buf, len);
    }

    /**
     * The page's bytes to send, read from this builder's own array (no copy): the builder must not be written to
     * afterwards. The stream supports mark/reset, so a caller may read it and hand it on.
     */
    public java.io.InputStream stream() {
        return new java.io.ByteArrayInputStream(buf, 0, len);
    }

    /** Takes off the page's bytes from {@code from} on and returns them as text (they are ASCII). */
    public String cut(int from) {
        String tail = new String(buf, from, len - from, java.nio.charset.StandardCharsets.ISO_8859_1);
        len = from;
        return tail;
    }

    /** How many bytes the page has. */
    public int length() {
        return len;
    }

    public static String escape(String s) {
        return new Html().t(s).toString();
    }

    private void ascii(char c) {
        ensure(1);
        buf[len++] = (byte) c;
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }

    /** Escaped text: runs needing no escape are copied in bulk, the rest as entities. */
    @SuppressWarnings("deprecation") // getBytes(int, int, byte[], int) keeps each char's low byte: right for ASCII
    private Html text(String s) {
        int n = s.length();
        int clean = 0; // s[clean, i) is ASCII needing no escape, copied in one go
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80 || ESCAPED[c]) {
                copy(s, clean, i);
                switch (c) {
                    case '<' -> raw("&lt;");
                    case '>' -> raw("&gt;");
                    case '&' -> raw("&amp;");
                    case '"' -> raw("&quot;");
                    case '\'' -> raw("&#39;");
                    default -> i += characterReference(s, i) - 1;
                }
                clean = i + 1;
            }
        }
        copy(s, clean, n);
        return this;
    }

    /** Writes the character at {@code s[i]} as {@code &#code;}; returns its length in chars (2 for a surrogate pair). */
    private int characterReference(String s, int i) {
        int cp = s.codePointAt(i);
        ascii('&');
        ascii('#');
        t(cp);
        ascii(';');
        return Character.charCount(cp);
    }

    @SuppressWarnings("deprecation")
    private void copy(String s, int from, int to) {
        if (to > from) {
            ensure(to - from);
            s.getBytes(from, to, buf, len);
            len += to - from;
        }
    }

    /**
     * JSON to embed in {@code <script type="application/json">}: characters that could end the element or open a
     * comment are written as JSON unicode escapes, so the block can never be closed early.
     */
    public static String jsonForScript(String json) {
        if (json.chars().noneMatch(c -> c == '<' || c == '>' || c == '&' || c >= 0x80)) {
            return json;
        }
        StringBuilder out = new StringBuilder(json.length() + 16);
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == '<' || c == '>' || c == '&' || c >= 0x80) {
                // also every non-ASCII char (U+2028/2029 included): JSON's \\uXXXX, since raw() would write them as
                // HTML character references, which a <script> element does not decode
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
