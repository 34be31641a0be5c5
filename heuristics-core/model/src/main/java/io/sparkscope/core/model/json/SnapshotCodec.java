package io.sparkscope.core.model.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.StageTotals;
import io.sparkscope.core.model.TaskDistributions;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Iterator;
import java.util.Map;

/**
 * Lossless JSON for an {@link AppSnapshot} (records by their components; metric holders as objects keyed by metric
 * name, zeros left out). Used where a snapshot must survive a process: the listener's spool, tests comparing runs.
 * Unlike {@code report.SnapshotJson} this is not a report format.
 */
public final class SnapshotCodec {
    /** Map entries sorted by key: the same snapshot always gives the same text (spool files, comparisons). */
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .registerModule(module());

    private SnapshotCodec() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static void write(AppSnapshot snapshot, OutputStream out) throws IOException {
        MAPPER.writeValue(out, snapshot);
    }

    public static AppSnapshot read(InputStream in) throws IOException {
        return MAPPER.readValue(in, AppSnapshot.class);
    }

    public static String toJson(AppSnapshot snapshot) throws IOException {
        return MAPPER.writeValueAsString(snapshot);
    }

    public static AppSnapshot fromJson(String json) throws IOException {
        return MAPPER.readValue(json, AppSnapshot.class);
    }

    private static SimpleModule module() {
        SimpleModule m = new SimpleModule("sparkscope-snapshot");
        m.addSerializer(TaskMetrics.class, new JsonSerializer<>() {
            @Override
            public void serialize(TaskMetrics v, JsonGenerator g, SerializerProvider p) throws IOException {
                writeMetrics(g, v::get);
            }
        });
        m.addDeserializer(TaskMetrics.class, new JsonDeserializer<>() {
            @Override
            public TaskMetrics deserialize(JsonParser p, DeserializationContext c) throws IOException {
                JsonNode node = p.getCodec().readTree(p);
                TaskMetrics.Builder b = TaskMetrics.builder();
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    b.set(TaskMetric.valueOf(e.getKey()), e.getValue().asLong());
                }
                return b.build();
            }
        });
        m.addSerializer(StageTotals.class, new JsonSerializer<>() {
            @Override
            public void serialize(StageTotals v, JsonGenerator g, SerializerProvider p) throws IOException {
                writeMetrics(g, v::get);
            }
        });
        m.addDeserializer(StageTotals.class, new JsonDeserializer<>() {
            @Override
            public StageTotals deserialize(JsonParser p, DeserializationContext c) throws IOException {
                JsonNode node = p.getCodec().readTree(p);
                long[] sums = new long[TaskMetric.count()];
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    sums[TaskMetric.valueOf(e.getKey()).ordinal()] = e.getValue().asLong();
                }
                return StageTotals.of(sums);
            }
        });
        m.addSerializer(TaskDistributions.class, new JsonSerializer<>() {
            @Override
            public void serialize(TaskDistributions v, JsonGenerator g, SerializerProvider p) throws IOException {
                g.writeStartObject();
                g.writeNumberField("count", v.count());
                g.writeBooleanField("exact", v.exact());
                double[] qs = v.quantiles();
                g.writeFieldName("quantiles");
                g.writeArray(qs, 0, qs.length);
                g.writeObjectFieldStart("values");
                for (DistributionMetric metric : DistributionMetric.values()) {
                    double[] values = v.values(metric);
                    g.writeFieldName(metric.name());
                    g.writeArray(values, 0, values.length);
                }
                g.writeEndObject();
                g.writeEndObject();
            }
        });
        m.addDeserializer(TaskDistributions.class, new JsonDeserializer<>() {
            @Override
            public TaskDistributions deserialize(JsonParser p, DeserializationContext c) throws IOException {
                JsonNode node = p.getCodec().readTree(p);
                double[] qs = doubles(node.get("quantiles"));
                double[][] values = new double[DistributionMetric.count()][];
                JsonNode vs = node.get("values");
                for (DistributionMetric metric : DistributionMetric.values()) {
                    JsonNode arr = vs.get(metric.name());
                    values[metric.ordinal()] = arr == null ? new double[qs.length] : doubles(arr);
                }
                return new TaskDistributions(node.get("count").asLong(), node.path("exact").asBoolean(true), qs,
                        values);
            }
        });
        return m;
    }

    /** One object keyed by metric name, zeros left out: compact, and readable across added metrics. */
    private static void writeMetrics(JsonGenerator g, java.util.function.ToLongFunction<TaskMetric> value)
            throws IOException {
        g.writeStartObject();
        for (TaskMetric metric : TaskMetric.values()) {
            long x = value.applyAsLong(metric);
            if (x != 0) {
                g.writeNumberField(metric.name(), x);
            }
        }
        g.writeEndObject();
    }

    private static double[] doubles(JsonNode arr) {
        double[] out = new double[arr.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = arr.get(i).asDouble();
        }
        return out;
    }
}
