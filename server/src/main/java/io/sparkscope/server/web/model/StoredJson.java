package io.sparkscope.server.web.model;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.LinkedHashMap;
import java.util.Map;

/** JSON objects the store hands back as text (jsonb columns: a finding's numbers, a stage's totals), as maps. */
public final class StoredJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private StoredJson() {
    }

    /** The object's fields in stored order; empty for null or "", and the text itself under "details" if unreadable. */
    public static Map<String, Object> object(String json) {
        if (json == null || json.isEmpty()) {
            return Map.of();
        }
        try {
            return JSON.readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (Exception e) {
            return Map.of("details", json);
        }
    }
}
