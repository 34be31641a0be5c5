package io.sparkscope.server.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A tool's arguments as the JSON Schema its description shows the model: each named, typed and explained, the
 * required ones listed. The same names are the only ones {@link ToolArgs} accepts.
 */
final class ToolSchema {
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final List<String> required = new ArrayList<>();

    ToolSchema string(String name, String description) {
        return add(name, Map.of("type", "string", "description", description));
    }

    ToolSchema integer(String name, String description) {
        return add(name, Map.of("type", "integer", "description", description));
    }

    /** A value given as a number or as text with a unit ("10GB"). */
    ToolSchema numberOrText(String name, String description) {
        return add(name, Map.of("type", List.of("number", "string"), "description", description));
    }

    ToolSchema choice(String name, String description, String... values) {
        return add(name, Map.of("type", "string", "enum", List.of(values), "description", description));
    }

    ToolSchema list(String name, String itemType, String description) {
        return add(name, Map.of("type", "array", "items", Map.of("type", itemType), "description", description));
    }

    /** Marks the arguments added so far under these names as required. */
    ToolSchema require(String... names) {
        required.addAll(List.of(names));
        return this;
    }

    ToolSchema app() {
        return string("appId", "Spark application id, e.g. app-20261129101500-0001 or application_1795_0001")
                .string("attemptId", "attempt id (YARN/cluster mode); omit for the newest attempt")
                .require("appId");
    }

    ToolSchema job() {
        return string("job", "job key (from list_jobs or an application's jobKey)")
                .string("name", "application name, when it names one job (give job or name)");
    }

    ToolSchema page(int dflt) {
        return integer("limit", "items per answer (default " + dflt + ", at most " + ToolArgs.MAX_LIMIT + ")")
                .string("cursor", "nextCursor of the previous answer, for the next page");
    }

    Set<String> names() {
        return properties.keySet();
    }

    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "object");
        m.put("properties", properties);
        if (!required.isEmpty()) {
            m.put("required", required);
        }
        m.put("additionalProperties", false);
        return m;
    }

    private ToolSchema add(String name, Map<String, Object> property) {
        properties.put(name, property);
        return this;
    }
}
