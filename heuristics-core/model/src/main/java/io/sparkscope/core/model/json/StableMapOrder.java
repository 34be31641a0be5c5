package io.sparkscope.core.model.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Jackson module that writes maps made by {@code Map.of} or {@code Map.copyOf} in key order. Those maps iterate in
 * an order that changes from one JVM start to the next, so without it the same application gave different JSON bytes
 * in two runs of {@code analyze --json}. Other maps (a LinkedHashMap filled in a chosen order) are written as they are.
 */
public final class StableMapOrder extends SimpleModule {
    @SuppressWarnings({"unchecked", "rawtypes"})
    public StableMapOrder() {
        super("StableMapOrder");
        // The JDK's immutable map with two or more entries; one entry (or none) has no order to lose.
        Class<Map<?, ?>> immutable = (Class) Map.of("a", 1, "b", 2).getClass();
        addSerializer(immutable, new KeyOrdered(immutable));
    }

    private static final class KeyOrdered extends StdSerializer<Map<?, ?>> {
        KeyOrdered(Class<Map<?, ?>> type) {
            super(type);
        }

        @Override
        public void serialize(Map<?, ?> map, JsonGenerator out, SerializerProvider provider) throws IOException {
            List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
            entries.sort(Comparator.comparing(e -> String.valueOf(e.getKey())));
            Map<Object, Object> ordered = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : entries) {
                ordered.put(e.getKey(), e.getValue());
            }
            provider.defaultSerializeValue(ordered, out);
        }
    }
}
