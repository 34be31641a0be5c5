package io.sparkscope.ingest.fetch;

import com.fasterxml.jackson.databind.JsonNode;

/** Null-tolerant reads of Spark REST JSON: Spark leaves out {@code Option} fields that are empty. */
final class RestJson {
    private RestJson() {
    }

    /** The text of a field, or null when missing or JSON null. */
    static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    static long longOf(JsonNode node, String field, long missing) {
        JsonNode v = node == null ? null : node.get(field);
        return v == null || v.isNull() ? missing : v.asLong(missing);
    }

    static int intOf(JsonNode node, String field, int missing) {
        JsonNode v = node == null ? null : node.get(field);
        return v == null || v.isNull() ? missing : v.asInt(missing);
    }

    /** Epoch ms of a REST date field, or -1 when the field is missing. */
    static long date(JsonNode node, String field) {
        return SparkDates.parse(text(node, field));
    }

    /** The node at a dotted path ({@code shuffleReadMetrics.readBytes}), or a missing node. */
    static JsonNode at(JsonNode node, String dottedPath) {
        JsonNode n = node;
        for (String part : dottedPath.split("\\.")) {
            n = n.path(part);
        }
        return n;
    }
}
