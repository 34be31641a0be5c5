package io.sparkscope.store;

/**
 * Encodes typed row values in PostgreSQL's COPY text format (tab-separated, {@code \N} for NULL, one row a line).
 * Values are data, never SQL: the format has exactly four special characters (backslash, tab, newline, carriage
 * return), each escaped here, so no user string can end a field, a row or the data stream.
 *
 * <p>Values are the same Java types {@link Column#bind} takes, with the same NUL policy (PostgreSQL text cannot hold
 * U+0000: it becomes U+FFFD in text and text[] values, as with the batched path).
 */
final class CopyText {
    private CopyText() {
    }

    /** Appends one row (columns in table order, without app_pk) followed by a newline. */
    static void appendRow(StringBuilder sb, java.util.List<? extends Column<?>> cols, Object[] row) {
        for (int i = 0; i < cols.size(); i++) {
            if (i > 0) {
                sb.append('\t');
            }
            appendValue(sb, cols.get(i).type(), row[i]);
        }
        sb.append('\n');
    }

    static void appendValue(StringBuilder sb, Column.Type type, Object value) {
        if (value == null) {
            sb.append("\\N");
            return;
        }
        switch (type) {
            case TEXT -> escape(sb, (String) value, true);
            case JSONB -> escape(sb, (String) value, false);
            case INT, BIGINT -> sb.append(((Number) value).longValue());
            // Double.toString round-trips exactly
            case FLOAT8 -> sb.append(Double.toString(((Number) value).doubleValue()));
            case BOOL -> sb.append((Boolean) value ? 't' : 'f');
            case INT_ARRAY -> {
                Object[] a = (Object[]) value;
                sb.append('{');
                for (int i = 0; i < a.length; i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    sb.append(a[i] == null ? "NULL" : String.valueOf(((Number) a[i]).longValue()));
                }
                sb.append('}');
            }
            case FLOAT8_ARRAY -> {
                Object[] a = (Object[]) value;
                sb.append('{');
                for (int i = 0; i < a.length; i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    // Double.toString round-trips exactly; NaN/Infinity/-Infinity are float8 input spellings too.
                    sb.append(a[i] == null ? "NULL" : Double.toString(((Number) a[i]).doubleValue()));
                }
                sb.append('}');
            }
            case TEXT_ARRAY -> {
                // Array literal first ({"a","b\"c",NULL}: every element quoted, so commas, braces, spaces and the
                // word NULL stay data), then COPY escaping of the whole literal.
                String[] a = (String[]) value;
                StringBuilder lit = new StringBuilder().append('{');
                for (int i = 0; i < a.length; i++) {
                    if (i > 0) {
                        lit.append(',');
                    }
                    if (a[i] == null) {
                        lit.append("NULL");
                        continue;
                    }
                    lit.append('"');
                    String s = a[i];
                    for (int k = 0; k < s.length(); k++) {
                        char ch = s.charAt(k);
                        if (ch == '"' || ch == '\\') {
                            lit.append('\\');
                        }
                        lit.append(ch);
                    }
                    lit.append('"');
                }
                escape(sb, lit.append('}').toString(), true);
            }
        }
    }

    /** COPY text escaping of one field; {@code replaceNul} as {@link Column#bind} does for text. */
    static void escape(StringBuilder sb, String s, boolean replaceNul) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '\\' -> sb.append("\\\\");
                case '\t' -> sb.append("\\t");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\u0000' -> sb.append(replaceNul ? '\uFFFD' : ch);
                default -> sb.append(ch);
            }
        }
    }
}
