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
    private final StringBuilder sb = new StringBuilder(16 * 1024);

    /** Trusted markup: string literals of this package only (non-ASCII characters become character references). */
    public Html raw(String markup) {
        int i = firstNonAscii(markup);
        if (i < 0) {
            sb.append(markup);
        } else {
            sb.append(markup, 0, i);
            for (int k = i; k < markup.length(); ) {
                int cp = markup.codePointAt(k);
                if (cp < 0x80) {
                    sb.append((char) cp);
                } else {
                    sb.append("&#").append(cp).append(';');
                }
                k += Character.charCount(cp);
            }
        }
        return this;
    }

    private static int firstNonAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return i;
            }
        }
        return -1;
    }

    /** Text content, escaped. Null prints nothing. */
    public Html t(Object value) {
        if (value != null) {
            escape(String.valueOf(value), sb);
        }
        return this;
    }

    /** An attribute value (the caller writes the surrounding double quotes), escaped. */
    public Html a(Object value) {
        return t(value);
    }

    /** {@code <tag class="cls">text</tag>} with text escaped. */
    public Html el(String tag, String cls, Object text) {
        sb.append('<').append(tag);
        if (cls != null) {
            sb.append(" class=\"").append(cls).append('"');
        }
        sb.append('>');
        t(text);
        sb.append("</").append(tag).append('>');
        return this;
    }

    /** {@code <a href="url">text</a>}; url is escaped as an attribute (our URLs are built by {@link Urls}). */
    public Html link(String url, Object text) {
        sb.append("<a href=\"");
        t(url);
        sb.append("\">");
        t(text);
        sb.append("</a>");
        return this;
    }

    @Override
    public String toString() {
        return sb.toString();
    }

    public static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        escape(s, out);
        return out.toString();
    }

    private static void escape(String s, StringBuilder out) {
        int n = s.length();
        int clean = 0; // s[clean, i) needs no escaping and is appended in one copy
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80 || c == '<' || c == '>' || c == '&' || c == '"' || c == '\'') {
                out.append(s, clean, i);
                switch (c) {
                    case '<' -> out.append("&lt;");
                    case '>' -> out.append("&gt;");
                    case '&' -> out.append("&amp;");
                    case '"' -> out.append("&quot;");
                    case '\'' -> out.append("&#39;");
                    default -> {
                        int cp = s.codePointAt(i);
                        out.append("&#").append(cp).append(';');
                        i += Character.charCount(cp) - 1;
                    }
                }
                clean = i + 1;
            }
        }
        if (clean == 0) {
            out.append(s);
        } else {
            out.append(s, clean, n);
        }
    }

    /**
     * JSON to embed in {@code <script type="application/json">}: characters that could end the element or open a
     * comment are written as JSON unicode escapes, so the block can never be closed early.
     */
    public static String jsonForScript(String json) {
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
