package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * JSON trees compared as Spark's HistoryServerSuite compares its golden files (as trees, not as text), numbers by
 * value (an int and a long of the same value are equal), with named fields left out of both sides.
 */
public final class JsonTrees {
    private JsonTrees() {
    }

    /** A copy without the fields named in {@code ignored} (at any depth). */
    public static JsonNode without(JsonNode n, Set<String> ignored) {
        if (n.isObject()) {
            ObjectNode out = ((ObjectNode) n).objectNode();
            for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!ignored.contains(f)) {
                    out.set(f, without(n.get(f), ignored));
                }
            }
            return out;
        }
        if (n.isArray()) {
            ArrayNode out = ((ArrayNode) n).arrayNode();
            n.forEach(x -> out.add(without(x, ignored)));
            return out;
        }
        return n;
    }

    /** Every difference as "path: expected … but was …", empty when the trees are equal. */
    public static List<String> differences(JsonNode expected, JsonNode actual) {
        List<String> out = new ArrayList<>();
        diff("$", expected, actual, out);
        return out;
    }

    private static void diff(String path, JsonNode e, JsonNode a, List<String> out) {
        if (out.size() >= 20) {
            return;
        }
        if (a == null) {
            out.add(path + ": missing (expected " + e + ")");
            return;
        }
        if (e.isNumber() && a.isNumber()) {
            if (e.isIntegralNumber() && a.isIntegralNumber() ? e.asLong() != a.asLong() : e.asDouble() != a.asDouble()) {
                out.add(path + ": expected " + e + " but was " + a);
            }
            return;
        }
        if (e.isObject() && a.isObject()) {
            Set<String> names = new TreeSet<>();
            e.fieldNames().forEachRemaining(names::add);
            a.fieldNames().forEachRemaining(names::add);
            for (String f : names) {
                if (!e.has(f)) {
                    out.add(path + "." + f + ": not in Spark's answer (was " + a.get(f) + ")");
                } else {
                    diff(path + "." + f, e.get(f), a.get(f), out);
                }
            }
            return;
        }
        if (e.isArray() && a.isArray()) {
            if (e.size() != a.size()) {
                out.add(path + ": " + e.size() + " elements expected, " + a.size() + " found");
            }
            for (int i = 0; i < Math.min(e.size(), a.size()); i++) {
                diff(path + "[" + i + "]", e.get(i), a.get(i), out);
            }
            return;
        }
        if (!e.equals(a)) {
            out.add(path + ": expected " + e + " but was " + a);
        }
    }
}
