package io.sparkscope.core.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.FixFirst;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.DistributionMetric;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.json.StableMapOrder;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.model.TaskRecord;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The JSON form of a snapshot ({@code analyze --json}, the API): times in epoch ms, durations in ms, bytes in bytes;
 * stage {@code totals} under Spark's {@code StageData} names and {@code taskSummary} in the shape of Spark's REST
 * {@code TaskMetricDistributions}.
 */
public final class SnapshotJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .registerModule(new StableMapOrder());

    private SnapshotJson() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * @param quantiles quantiles to print (each must have been computed by the recorder)
     * @param findings  objects Jackson can serialize (records), printed as the {@code findings} array; when they are
     *                  the engine's {@link Finding}s, {@code fixFirst} lists the root causes to fix first
     * @param withTasks include each stage's kept tasks
     */
    public static Map<String, Object> toMap(AppSnapshot s, double[] quantiles, List<?> findings, boolean withTasks) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Field f : fields(s, quantiles, findings, withTasks)) {
            m.put(f.name(), f.list() == null ? f.value() : f.list().stream().map(f.element()).toList());
        }
        return m;
    }

    /**
     * The same object as {@link #toMap}, written to {@code out} as it is made: one executor, job, stage or SQL
     * execution at a time, so that the report of a large application never exists whole in memory. The generator's
     * object is left open, so the caller can add fields of its own ({@code efficiency}, {@code whatIf}) and close it.
     */
    public static void writeOpen(JsonGenerator out, AppSnapshot s, double[] quantiles, List<?> findings,
                                 boolean withTasks) throws IOException {
        out.writeStartObject();
        for (Field f : fields(s, quantiles, findings, withTasks)) {
            out.writeFieldName(f.name());
            if (f.list() == null) {
                out.writeObject(f.value());
            } else {
                out.writeStartArray();
                for (Object element : f.list()) {
                    out.writeObject(f.element().apply(element));
                }
                out.writeEndArray();
            }
        }
    }

    /** A generator writing indented JSON to {@code out}, as {@link #toJson} formats it; closing it leaves out open. */
    public static JsonGenerator generator(OutputStream out) throws IOException {
        JsonGenerator g = MAPPER.getFactory().createGenerator(out);
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        g.useDefaultPrettyPrinter();
        return g;
    }

    /** One top-level field: a value, or a list whose elements are turned into JSON one at a time. */
    private record Field(String name, Object value, List<?> list, Function<Object, Object> element) {
        static Field of(String name, Object value) {
            return new Field(name, value, null, null);
        }

        @SuppressWarnings("unchecked")
        static <T> Field list(String name, List<T> list, Function<T, Object> element) {
            return new Field(name, null, list, (Function<Object, Object>) element);
        }
    }

    private static List<Field> fields(AppSnapshot s, double[] quantiles, List<?> findings, boolean withTasks) {
        return List.of(
                Field.of("appId", s.appId()),
                Field.of("attemptId", s.attemptId()),
                Field.of("appName", s.appName()),
                Field.of("sparkUser", s.sparkUser()),
                Field.of("sparkVersion", s.sparkVersion()),
                Field.of("startTime", s.startTime()),
                Field.of("endTime", s.endTime()),
                Field.of("durationMs", s.durationMs()),
                Field.of("complete", s.complete()),
                Field.of("status", s.status()),
                Field.of("config", s.config().sparkProperties()),
                Field.of("driverGcTimeMs", s.driverGcTimeMs()),
                Field.of("driverMaxMemory", s.driverMaxMemory()),
                Field.list("executors", s.executors(), SnapshotJson::executor),
                Field.list("jobs", s.jobs(), SnapshotJson::job),
                Field.list("stages", s.stages(), st -> stage(st, quantiles, withTasks)),
                Field.list("sqlExecutions", s.sqlExecutions(), SnapshotJson::sql),
                Field.of("fixFirst", fixFirst(s, findings)),
                Field.of("findings", findings == null ? List.of() : findings));
    }

    /**
     * The "fix this first" list of {@link FixFirst} for the findings in the engine's order (at most three root causes,
     * each with its estimated saving, the ids of its knock-on findings and one sentence); empty when the findings are
     * not {@link Finding}s or none is estimated to save time.
     */
    static List<FixFirst.Item> fixFirst(AppSnapshot s, List<?> findings) {
        List<Finding> ranked = new ArrayList<>();
        for (Object f : findings == null ? List.of() : findings) {
            if (!(f instanceof Finding finding)) {
                return List.of();
            }
            ranked.add(finding);
        }
        return FixFirst.of(ranked, s.durationMs()).items();
    }

    public static String toJson(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize report", e);
        }
    }

    private static Map<String, Object> executor(ExecutorSummary e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("executorId", e.executorId());
        m.put("host", e.host());
        m.put("totalCores", e.totalCores());
        m.put("addTime", e.addTime());
        m.put("removeTime", e.removeTime());
        m.put("removeReason", e.removeReason());
        m.put("maxMemory", e.maxMemory());
        m.put("completedTasks", e.completedTasks());
        m.put("failedTasks", e.failedTasks());
        m.put("killedTasks", e.killedTasks());
        m.put("totalDuration", e.totalDuration());
        m.put("totalRunTime", e.totalRunTime());
        m.put("totalCpuTimeNs", e.totalCpuTimeNs());
        m.put("totalGCTime", e.totalGcTime());
        m.put("totalInputBytes", e.inputBytes());
        m.put("totalShuffleRead", e.shuffleReadBytes());
        m.put("totalShuffleWrite", e.shuffleWriteBytes());
        m.put("memoryBytesSpilled", e.memoryBytesSpilled());
        m.put("diskBytesSpilled", e.diskBytesSpilled());
        m.put("peakMetrics", e.peakMetrics());
        return m;
    }

    private static Map<String, Object> job(JobSummary j) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jobId", j.jobId());
        m.put("name", j.name());
        m.put("description", j.description());
        m.put("jobGroup", j.jobGroup());
        m.put("status", j.status().name());
        m.put("stageIds", j.stageIds());
        m.put("submissionTime", j.submissionTime());
        m.put("completionTime", j.completionTime());
        m.put("durationMs", j.durationMs());
        m.put("failureReason", j.failureReason());
        m.put("sqlExecutionId", j.sqlExecutionId());
        m.put("numTasks", j.numTasks());
        m.put("numCompletedTasks", j.numCompletedTasks());
        m.put("numFailedTasks", j.numFailedTasks());
        m.put("numKilledTasks", j.numKilledTasks());
        m.put("numSkippedStages", j.numSkippedStages());
        return m;
    }

    private static Map<String, Object> stage(StageSummary s, double[] quantiles, boolean withTasks) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("stageId", s.stageId());
        m.put("attemptId", s.attemptId());
        m.put("name", s.name());
        m.put("status", s.status().name());
        m.put("numTasks", s.numTasks());
        m.put("numActiveTasks", s.numActiveTasks());
        m.put("numCompleteTasks", s.numCompleteTasks());
        m.put("numFailedTasks", s.numFailedTasks());
        m.put("numKilledTasks", s.numKilledTasks());
        m.put("numCompletedIndices", s.numCompletedIndices());
        // Spark's three counts above are task-end events; these say what they hold (StageSummary explains each).
        m.put("numTaskAttempts", s.endedTasks());
        m.put("numResubmittedTasks", s.numResubmittedTasks());
        m.put("numSpeculativeTasks", s.numSpeculativeTasks());
        m.put("numDuplicateTaskEnds", s.numDuplicateTaskEnds());
        m.put("numTasksWithUnknownTimes", s.numTasksWithUnknownTimes());
        m.put("submissionTime", s.submissionTime());
        m.put("completionTime", s.completionTime());
        m.put("durationMs", s.durationMs());
        m.put("firstTaskLaunchedTime", s.firstTaskLaunchedTime());
        m.put("failureReason", s.failureReason());
        m.put("parentIds", s.parentIds());
        m.put("jobIds", s.jobIds());
        m.put("endReasons", s.endReasons());
        m.put("totals", s.totals().asSparkFields());
        TaskDistributions d = s.taskSummary();
        m.put("taskSummaryCount", d == null ? 0 : d.count());
        m.put("taskSummaryExact", d == null || d.exact());
        m.put("taskSummary", d == null ? null : distributions(d.restrictTo(quantiles)));
        m.put("taskDetail", s.taskDetail().name());
        m.put("keptTasks", s.keptTasks().size());
        if (s.taskTimes() != null) {
            m.put("taskTimes", s.taskTimes());
        }
        if (withTasks) {
            m.put("tasks", s.keptTasks().stream().map(SnapshotJson::task).toList());
        }
        return m;
    }

    /** Spark's REST TaskMetricDistributions shape: nested objects following each metric's dotted path. */
    public static Map<String, Object> distributions(TaskDistributions d) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("quantiles", d.quantiles());
        for (DistributionMetric metric : DistributionMetric.values()) {
            String[] parts = metric.path.split("\\.");
            Map<String, Object> node = root;
            for (int i = 0; i < parts.length - 1; i++) {
                @SuppressWarnings("unchecked")
                Map<String, Object> child = (Map<String, Object>) node.computeIfAbsent(parts[i],
                        k -> new LinkedHashMap<String, Object>());
                node = child;
            }
            node.put(parts[parts.length - 1], d.values(metric));
        }
        return root;
    }

    private static Map<String, Object> task(TaskRecord t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("taskId", t.taskId());
        m.put("index", t.index());
        m.put("attempt", t.attempt());
        m.put("partitionId", t.partitionId());
        m.put("executorId", t.executorId());
        m.put("host", t.host());
        m.put("status", t.status());
        m.put("launchTime", t.launchTime());
        m.put("durationMs", t.durationMs());
        m.put("speculative", t.speculative());
        m.put("endReason", t.endReason());
        m.put("errorMessage", t.errorMessage());
        if (t.metrics() != null) {
            Map<String, Long> metrics = new LinkedHashMap<>();
            t.metrics().asMap().forEach((k, v) -> metrics.put(k.stageTotalName, v));
            m.put("metrics", metrics);
        }
        return m;
    }

    private static Map<String, Object> sql(SqlExecutionSummary s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("executionId", s.executionId());
        m.put("description", s.description());
        m.put("startTime", s.startTime());
        m.put("endTime", s.endTime());
        m.put("errorMessage", s.errorMessage());
        m.put("jobIds", s.jobIds());
        return m;
    }
}
