package io.sparkscope.core.event;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Short texts for a streaming source's offsets. Spark reports each as the source's own JSON: a number for the rate
 * source, {@code {"topic":{"0":48642,"1":48630}}} for Kafka (one entry per partition), file names for a file source.
 * A short offset is kept as it is; a long Kafka-shaped one becomes one line per topic with its partition count and
 * offset sum ({@code topic: 120 partitions, Σ 5 812 004}), anything else long its first
 * {@value #MAX_CHARS} characters and an ellipsis. So what every batch keeps is bounded whatever the source.
 */
public final class StreamingOffsets {
    /** Characters an offset (or a source metric value) keeps at most. */
    public static final int MAX_CHARS = 160;
    private static final JsonFactory JSON = new JsonFactory();

    private StreamingOffsets() {
    }

    /** The offset as kept: null stays null, short ones unchanged, long ones summarised. */
    public static String summary(String offset) {
        if (offset == null) {
            return null;
        }
        String s = offset.strip();
        if (s.length() <= MAX_CHARS) {
            return s;
        }
        String perTopic = perTopic(s);
        return cut(perTopic != null ? perTopic : s);
    }

    /** At most {@value #MAX_CHARS} characters, an ellipsis marking a cut. */
    public static String cut(String s) {
        if (s == null || s.length() <= MAX_CHARS) {
            return s;
        }
        return s.substring(0, MAX_CHARS - 1) + "…";
    }

    /** {@code {"t":{"0":1,…},…}} as {@code t: N partitions, Σ S; …}, or null for any other shape. */
    private static String perTopic(String json) {
        List<String> parts = new ArrayList<>();
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String topic = p.currentName();
                if (p.nextToken() != JsonToken.START_OBJECT) {
                    return null;
                }
                long partitions = 0;
                BigInteger sum = BigInteger.ZERO;
                for (JsonToken u = p.nextToken(); u == JsonToken.FIELD_NAME; u = p.nextToken()) {
                    if (p.nextToken() != JsonToken.VALUE_NUMBER_INT) {
                        return null;
                    }
                    partitions++;
                    sum = sum.add(p.getBigIntegerValue());
                }
                parts.add(topic + ": " + partitions + (partitions == 1 ? " partition" : " partitions") + ", Σ " + sum);
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                return null;
            }
        } catch (IOException notJson) {
            return null;
        }
        return parts.isEmpty() ? null : String.join("; ", parts);
    }
}
