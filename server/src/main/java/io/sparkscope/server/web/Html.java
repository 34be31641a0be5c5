package io.sparkscope.server.web;

/**
 * An HTML string builder where escaping is the default: {@link #t} writes text (escaped), {@link #a} writes an
 * attribute value (escaped, for use inside double quotes), and only {@link #raw} writes markup — callers pass it
 * compile-time constants, never data. That single rule is what keeps user-controlled strings (application names,
 * users, config values, failure reasons) from becoming markup.
 */
public final class Html {
    private final StringBuilder sb = new StringBuilder(16 * 1024);

    /** Trusted markup: string literals of this package only. */
    public Html raw(String markup) {
        sb.append(markup);
        return this;
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
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
    }

    /**
     * JSON to embed in {@code <script type="application/json">}: characters that could end the element or open a
     * comment are written as JSON unicode escapes, so the block can never be closed early.
     */
    public static String jsonForScript(String json) {
        return json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }
}
