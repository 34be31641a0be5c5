package io.sparkscope.store.query;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Small JDBC helpers shared by the query classes. */
final class Sql {
    private Sql() {
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
     * The banners of {@code application.banners} (V7: [[id, heuristic, severity, title, message], …]) as findings with
     * just those fields; null or an unreadable value gives none (a banner is a hint, never worth failing a page).
     */
    static List<Finding> banners(String json) {
        if (json == null) {
            return List.of();
        }
        try {
            JsonNode arr = BANNER_JSON.readTree(json);
            List<Finding> out = new ArrayList<>(arr.size());
            for (JsonNode b : arr) {
                Severity severity = severity(text(b, 2));
                if (text(b, 0) == null || text(b, 1) == null || severity == null) {
                    continue; // not a banner this version wrote
                }
                out.add(new Finding(text(b, 0), text(b, 1), severity, text(b, 3), text(b, 4), null, List.of(),
                        List.of(), List.of(), Map.of()));
            }
            return out;
        } catch (JsonProcessingException e) {
            return List.of();
        }
    }

    private static Severity severity(String stored) {
        return "HIGH".equals(stored) ? Severity.HIGH : "LOW".equals(stored) ? Severity.LOW : null;
    }

    private static final ObjectMapper BANNER_JSON =
            new ObjectMapper();

    private static String text(JsonNode b, int i) {
        JsonNode v = b.get(i);
        return v == null || v.isNull() ? null : v.asText();
    }
}
