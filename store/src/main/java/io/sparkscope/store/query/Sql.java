package io.sparkscope.store.query;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import org.postgresql.PGStatement;

import java.io.IOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Small JDBC helpers shared by the query classes. */
final class Sql {
    private Sql() {
    }

    /**
     * Has PostgreSQL plan this statement for the values it is given, every time it runs. A statement the driver has
     * run five times becomes a named prepared statement, and PostgreSQL may then switch it to one generic plan for
     * all values. That is right for most pages' look-ups by key, and saves the planning on every run (about half
     * of PostgreSQL's time on an application page). It is wrong for the search page: a name filter matching half the
     * applications, sorted by duration, got the generic plan "all matches, then sort" (5–30 ms) instead of walking
     * the duration index until 50 match (under 3 ms). A statement the driver never prepares is parsed and planned
     * afresh on each run, with its values.
     */
    static PreparedStatement plannedForItsValues(PreparedStatement ps) throws SQLException {
        ps.unwrap(PGStatement.class).setPrepareThreshold(0);
        return ps;
    }

    static void bind(PreparedStatement ps, List<Object> params) throws SQLException {
        int i = 1;
        for (Object p : params) {
            if (p instanceof Long l) {
                ps.setLong(i++, l);
            } else if (p instanceof Integer n) {
                ps.setInt(i++, n);
            } else if (p instanceof Double d) {
                ps.setDouble(i++, d);
            } else if (p instanceof Long[] ls) {
                ps.setArray(i++, ps.getConnection().createArrayOf("bigint", ls));
            } else {
                ps.setString(i++, (String) p);
            }
        }
    }

    static Array pks(Connection c, List<Long> pks) throws SQLException {
        return c.createArrayOf("bigint", pks.toArray(new Long[0]));
    }

    static List<String> strings(Array a) throws SQLException {
        if (a == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Object o : (Object[]) a.getArray()) {
            out.add(String.valueOf(o));
        }
        return out;
    }

    static List<Integer> ints(Array a) throws SQLException {
        if (a == null) {
            return List.of();
        }
        List<Integer> out = new ArrayList<>();
        for (Object o : (Object[]) a.getArray()) {
            out.add(((Number) o).intValue());
        }
        return out;
    }

    static double[] doubles(Array a) throws SQLException {
        if (a == null) {
            return new double[0];
        }
        Object[] v = (Object[]) a.getArray();
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = ((Number) v[i]).doubleValue();
        }
        return out;
    }

    static String escapeLike(String s) {
        return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    /**
     * The banners of {@code application.banners} (V7: [[id, heuristic, severity, title, message], …], JSON text since
     * V20) as findings with just those fields; null or an unreadable value gives none (a banner is a hint, never worth
     * failing a page). A search page reads 50 of these: the usual shape, arrays of strings, is read by a scanner of
     * its own (a third of the cost of a streaming JSON parser); anything else (nulls, numbers, nesting) goes to
     * Jackson's parser.
     */
    static List<Finding> banners(String json) {
        if (json == null) {
            return List.of();
        }
        List<Finding> fast = BannerScanner.scan(json);
        return fast != null ? fast : bannersParsed(json);
    }

    /** Reads {@code [["a","b",…],…]} of JSON strings only; null when the text has any other shape. */
    static final class BannerScanner {
        private final String s;
        private int i;

        private BannerScanner(String s) {
            this.s = s;
        }

        static List<Finding> scan(String json) {
            try {
                return new BannerScanner(json).banners();
            } catch (RuntimeException e) {
                return null; // not the usual shape (or cut short): the JSON parser decides
            }
        }

        private List<Finding> banners() {
            expect('[');
            List<Finding> out = new ArrayList<>();
            if (peek() == ']') {
                i++;
                return end(out);
            }
            String[] fields = new String[5];
            while (true) {
                expect('[');
                Arrays.fill(fields, null);
                int n = 0;
                if (peek() != ']') {
                    while (true) {
                        String v = string();
                        if (n < fields.length) {
                            fields[n] = v;
                        }
                        n++;
                        if (peek() == ',') {
                            i++;
                        } else {
                            break;
                        }
                    }
                }
                expect(']');
                Severity severity = severity(fields[2]);
                if (fields[0] != null && fields[1] != null && severity != null) {
                    out.add(new Finding(fields[0], fields[1], severity, fields[3], fields[4], null, List.of(),
                            List.of(), List.of(), Map.of()));
                }
                char c = peek();
                i++;
                if (c == ']') {
                    return end(out);
                }
                if (c != ',') {
                    return null;
                }
            }
        }

        private List<Finding> end(List<Finding> out) {
            while (i < s.length() && s.charAt(i) <= ' ') {
                i++;
            }
            return i == s.length() ? out : null;
        }

        /** Skips white space; the next character (an exception past the end). */
        private char peek() {
            while (s.charAt(i) <= ' ') {
                i++;
            }
            return s.charAt(i);
        }

        private void expect(char c) {
            if (peek() != c) {
                throw new IllegalStateException("not a banner list");
            }
            i++;
        }

        /** Where the next backslash is at or after {@link #i} (the text's length when none is left); -1 not looked yet. */
        private int nextBackslash = -1;

        private String string() {
            expect('"');
            int start = i;
            // String.indexOf is a vectorised search: the closing quote and the next backslash (looked for once, then
            // again only when passed) are found without reading the text char by char.
            int quote = s.indexOf('"', start);
            if (quote < 0) {
                throw new IllegalStateException("unterminated string");
            }
            if (nextBackslash < start) {
                int b = s.indexOf('\\', start);
                nextBackslash = b < 0 ? s.length() : b;
            }
            if (quote < nextBackslash) { // no escape: one substring
                i = quote + 1;
                return s.substring(start, quote);
            }
            i = nextBackslash;
            StringBuilder out = new StringBuilder(i - start + 16).append(s, start, i);
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case '"', '\\', '/' -> out.append(e);
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(s, i, i + 4, 16));
                        i += 4;
                    }
                    default -> throw new IllegalStateException("bad escape");
                }
            }
        }
    }

    /** Token by token with Jackson's streaming parser (no JSON tree): the banners in any other valid shape. */
    private static List<Finding> bannersParsed(String json) {
        try (JsonParser p = BANNER_JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                return List.of();
            }
            List<Finding> out = new ArrayList<>();
            String[] fields = new String[5];
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                if (t != JsonToken.START_ARRAY) {
                    p.skipChildren(); // not a banner this version wrote
                    continue;
                }
                Arrays.fill(fields, null);
                int i = 0;
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (t == JsonToken.START_ARRAY || t == JsonToken.START_OBJECT) {
                        p.skipChildren();
                    } else if (i < fields.length && t != JsonToken.VALUE_NULL) {
                        fields[i] = p.getText();
                    }
                    i++;
                }
                Severity severity = severity(fields[2]);
                if (fields[0] == null || fields[1] == null || severity == null) {
                    continue; // not a banner this version wrote
                }
                out.add(new Finding(fields[0], fields[1], severity, fields[3], fields[4], null, List.of(),
                        List.of(), List.of(), Map.of()));
            }
            return out;
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    private static Severity severity(String stored) {
        return "HIGH".equals(stored) ? Severity.HIGH : "LOW".equals(stored) ? Severity.LOW : null;
    }

    private static final JsonFactory BANNER_JSON = new JsonFactory();
}
