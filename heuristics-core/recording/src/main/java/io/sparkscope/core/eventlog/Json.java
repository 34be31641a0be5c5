package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The one Jackson setup the reader shares, and lenient value accessors. Lenient because Spark's own reader
 * ({@code JsonProtocol}) treats most fields as optional across versions: a missing or odd-typed number is 0, a
 * missing string null, never an exception.
 */
final class Json {
    /** Mapper for the rarer events decoded as trees; its factory is the one every parser comes from. */
    static final ObjectMapper MAPPER;
    static final JsonFactory FACTORY;

    static {
        JsonFactory factory = new Utf8Factory(new com.fasterxml.jackson.core.JsonFactoryBuilder()
                // A legitimate line can hold a 50 MB string (an EnvironmentUpdate's classpath, a SQL plan):
                // the line-length cap is the guard, not Jackson's default 20 M-char string limit.
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxStringLength(Integer.MAX_VALUE)
                        .maxNestingDepth(2_000)
                        .build())
                .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS));
        MAPPER = new ObjectMapper(factory);
        FACTORY = MAPPER.getFactory();
    }

    private Json() {
    }

    /**
     * A factory that builds the UTF-8 byte parser directly for a line that starts with '{' (every event line),
     * skipping Jackson's per-parser encoding detection ({@code ByteSourceJsonBootstrapper}): such a line can only
     * be UTF-8 to the detector too (no BOM, and a non-zero second byte rules out UTF-16/32), so the parser and its
     * behaviour are the same. Anything else goes through the normal path.
     */
    static final class Utf8Factory extends JsonFactory {
        private static final long serialVersionUID = 1L;

        Utf8Factory(com.fasterxml.jackson.core.JsonFactoryBuilder b) {
            super(b);
        }

        private Utf8Factory(Utf8Factory src, com.fasterxml.jackson.core.ObjectCodec codec) {
            super(src, codec);
        }

        @Override
        public JsonFactory copy() {
            return new Utf8Factory(this, null);
        }

        @Override
        protected JsonParser _createParser(byte[] data, int offset, int len,
                                           com.fasterxml.jackson.core.io.IOContext ctxt) throws IOException {
            if (len >= 2 && data[offset] == '{' && data[offset + 1] != 0
                    && isEnabled(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)) {
                ctxt.setEncoding(com.fasterxml.jackson.core.JsonEncoding.UTF8);
                return new com.fasterxml.jackson.core.json.UTF8StreamJsonParser(ctxt, _parserFeatures, null,
                        _objectCodec, _byteSymbolCanonicalizer.makeChild(_factoryFeatures),
                        data, offset, offset + len, 0, false);
            }
            return super._createParser(data, offset, len, ctxt);
        }
    }

    // ---- streaming accessors: the parser is on the value token ----

    static long longValue(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT) {
            return p.getLongValue();
        }
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            p.skipChildren();
            return 0;
        }
        return p.getValueAsLong(0);
    }

    static int intValue(JsonParser p) throws IOException {
        return (int) longValue(p);
    }

    static boolean boolValue(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            p.skipChildren();
            return false;
        }
        return p.getValueAsBoolean(false);
    }

    /** Text of a scalar value, null for JSON null; an object or array is skipped and gives null. */
    static String text(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            p.skipChildren();
            return null;
        }
        return p.getText();
    }

    /** Reads a flat object of scalars into a map (Spark's "Properties"); null values are left out. */
    static Map<String, String> stringMap(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            return Map.of();
        }
        Map<String, String> map = new HashMap<>();
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
            String key = p.currentName();
            p.nextToken();
            String value = text(p);
            if (value != null) {
                map.put(key, value);
            }
        }
        return map;
    }

    /**
     * Reads the rest of the current object into {@code node}: the parser is on a FIELD_NAME (or the END_OBJECT)
     * and is left on the END_OBJECT. Lets a decoder that began streaming hand the rest over to the tree model.
     */
    static ObjectNode restAsTree(JsonParser p, ObjectNode node) throws IOException {
        return restAsTree(p, node, null, null);
    }

    /**
     * As {@link #restAsTree(JsonParser, ObjectNode)}, but the values of the fields named {@code skip1} and
     * {@code skip2} (either may be null) are only scanned (still checked as JSON), not built into the tree.
     */
    static ObjectNode restAsTree(JsonParser p, ObjectNode node, String skip1, String skip2) throws IOException {
        JsonToken t = p.currentToken();
        while (t == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (name.equals(skip1) || name.equals(skip2)) {
                p.skipChildren();
            } else {
                JsonNode value = MAPPER.readTree(p);
                node.set(name, value == null ? NullNode.instance : value);
            }
            t = p.nextToken();
        }
        if (t != JsonToken.END_OBJECT) {
            throw new JsonParseException(p, "expected a field name or '}'");
        }
        return node;
    }

    // ---- tree accessors: absent and JSON null are the same, as in Spark's jsonOption ----

    static boolean has(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v != null && !v.isNull();
    }

    static long longOf(JsonNode n, String field, long dflt) {
        JsonNode v = n == null ? null : n.get(field);
        return v == null || v.isNull() || v.isContainerNode() ? dflt : v.asLong(dflt);
    }

    static int intOf(JsonNode n, String field, int dflt) {
        return (int) longOf(n, field, dflt);
    }

    static boolean boolOf(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v != null && v.asBoolean(false);
    }

    static String textOf(JsonNode n, String field, String dflt) {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || v.isNull()) {
            return dflt;
        }
        return v.isValueNode() ? v.asText() : v.toString();
    }

    /**
     * A string map from an object ({@code {"k":"v"}}, what Spark writes) or from an array of pairs
     * ({@code [["k","v"]]}, seen in hand-made and very old logs). Missing or anything else: empty.
     */
    static Map<String, String> stringMapOf(JsonNode n) {
        Map<String, String> map = new HashMap<>();
        if (n == null) {
            return map;
        }
        if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                if (v != null && !v.isNull()) {
                    map.put(e.getKey(), v.isValueNode() ? v.asText() : v.toString());
                }
            }
        } else if (n.isArray()) {
            for (JsonNode pair : n) {
                if (pair.isArray() && pair.size() == 2 && !pair.get(0).isNull() && !pair.get(1).isNull()) {
                    map.put(pair.get(0).asText(), pair.get(1).asText());
                }
            }
        }
        return map;
    }

    /** First line of a possibly multi-line text, marked when cut, so a problem or reason stays one line. */
    static String firstLine(String s) {
        return io.sparkscope.core.event.TaskEndReason.firstLine(s);
    }
}
