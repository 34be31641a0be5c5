package io.sparkscope.server.mcp;

import io.sparkscope.server.web.api.AgentJson;
import io.sparkscope.server.web.http.Params;
import io.sparkscope.server.web.http.Query;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.store.query.AppDetailQuery;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A tool call's arguments, read as the web reads its query parameters ({@link Params}), so an argument gets the same
 * checks and the same one-line error naming it. JSON numbers, booleans and arrays are taken as their text (an array
 * as its items, or comma-separated where one value is expected).
 */
final class ToolArgs implements Query {
    /** Largest page a list answers at once. */
    static final int MAX_LIMIT = 200;

    private final Map<String, Object> values;
    private final Map<String, String> defaults = new HashMap<>();

    /** @param known the argument names the tool declares: any other is refused, naming it */
    ToolArgs(Map<String, Object> values, Set<String> known) {
        this.values = values == null ? Map.of() : values;
        for (String name : this.values.keySet()) {
            if (!known.contains(name)) {
                throw WebException.badParam(name, "unknown argument; this tool takes "
                        + (known.isEmpty() ? "none" : String.join(", ", known.stream().sorted().toList())));
            }
        }
    }

    /** Answers {@code value} for {@code name} when the call left it out (a tool's own default). */
    ToolArgs withDefault(String name, String value) {
        defaults.put(name, value);
        return this;
    }

    @Override
    public String first(String name) {
        Object v = values.get(name);
        if (v == null) {
            return defaults.get(name);
        }
        if (v instanceof List<?> l) {
            return String.join(",", l.stream().map(ToolArgs::text).toList());
        }
        return text(v);
    }

    @Override
    public List<String> all(String name) {
        Object v = values.get(name);
        if (v instanceof List<?> l) {
            List<String> out = new ArrayList<>();
            l.forEach(x -> out.add(text(x)));
            return out;
        }
        String one = first(name);
        return one == null ? List.of() : List.of(one);
    }

    private static String text(Object v) {
        if (v instanceof Double || v instanceof Float || v instanceof BigDecimal) {
            // 20.0 from a client that writes every number as a float is still the whole number 20
            BigDecimal d = new BigDecimal(v.toString());
            return d.stripTrailingZeros().scale() <= 0 ? d.toBigInteger().toString() : d.toPlainString();
        }
        return String.valueOf(v);
    }

    /** A required text argument. */
    String required(String name, String what) {
        String v = Params.text(this, name);
        if (v == null) {
            throw WebException.badParam(name, "required: " + what);
        }
        return v;
    }

    /** {@code appId} (required) and {@code attemptId} (absent: the newest attempt). */
    AppDetailQuery.Ref app() {
        String appId = Params.checkId("appId", required("appId", "the Spark application id, e.g. app-20261129"
                + "101500-0001 or application_1795_0001"));
        return new AppDetailQuery.Ref(appId, Params.id(this, "attemptId"));
    }

    /** {@code limit} (default {@code dflt}, at most {@code max}) and {@code cursor}, a previous answer's nextCursor. */
    AgentJson.Page page(int dflt, int max) {
        int limit = Params.intValue(this, "limit", dflt, 1, max);
        String cursor = Params.text(this, "cursor");
        int offset = 0;
        if (cursor != null) {
            if (!cursor.matches("\\d{1,9}")) {
                throw WebException.badParam("cursor", "'" + cursor + "' is not a cursor: pass nextCursor of the"
                        + " previous answer as given");
            }
            offset = Integer.parseInt(cursor);
        }
        return new AgentJson.Page(offset, limit);
    }
}
