package io.sparkscope.server.web.model;

import io.sparkscope.core.heuristics.DetailLabel;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicEngine;
import io.sparkscope.server.web.model.FindingDetails.Kind;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Human labels and units of the heuristics' detail keys (and of the keys inside their lists of records): first what a
 * heuristic declares for its own keys ({@link Heuristic#detailLabels()}), then the vocabulary shared by many below.
 * A key in neither is labelled from its name: camelCase split into words, the unit from its suffix ({@code …Ms} a
 * duration, {@code …Bytes} a size, {@code …Share} a percentage).
 */
final class DetailLabels {
    /** @param text the label as shown */
    record Label(String text, Kind kind) {
    }

    private static final Map<String, Label> KEYS = new HashMap<>();
    /** Keys whose meaning depends on a finding that is not a {@link Heuristic} (Regression), as {@code Heuristic.key}. */
    private static final Map<String, Label> BY_HEURISTIC = new HashMap<>();

    private static void put(String key, String text, Kind kind) {
        KEYS.put(key, new Label(text, kind));
    }

    private static void put(String heuristic, String key, String text, Kind kind) {
        BY_HEURISTIC.put(heuristic + "." + key, new Label(text, kind));
    }

    static {
        // durations
        put("appDurationMs", "Application wall time", Kind.DURATION_MS);
        put("durationMs", "Duration", Kind.DURATION_MS);
        put("stageDurationMs", "Stage duration", Kind.DURATION_MS);
        put("taskTimeMs", "Task time", Kind.DURATION_MS);
        put("runTimeMs", "Executor run time", Kind.DURATION_MS);
        put("gcTimeMs", "GC time", Kind.DURATION_MS);
        put("driverGcTimeMs", "Driver GC time", Kind.DURATION_MS);
        put("medianTaskTimeMs", "Median task time", Kind.DURATION_MS);
        put("medianTaskMs", "Median task", Kind.DURATION_MS);
        put("maxTaskTimeMs", "Largest task time", Kind.DURATION_MS);
        put("maxTaskMs", "Slowest task", Kind.DURATION_MS);
        put("maxRunTimeMs", "Longest run time", Kind.DURATION_MS);
        put("medianRunTimeMs", "Median run time", Kind.DURATION_MS);
        put("medianSchedulerDelayMs", "Median scheduler delay", Kind.DURATION_MS);
        put("medianGettingResultMs", "Median getting-result time", Kind.DURATION_MS);
        put("medianDurationMs", "Median duration", Kind.DURATION_MS);
        put("noTaskMs", "Time with no task running", Kind.DURATION_MS);
        put("overheadPerTaskMs", "Overhead per task", Kind.DURATION_MS);
        put("excessMs", "Time above the usual", Kind.DURATION_MS);
        put("startOffsetMs", "Starts at (from the application start)", Kind.DURATION_MS);
        put("capacityCoreMs", "Core time available", Kind.CORE_MS);
        put("idleCoreHours", "Idle core time", Kind.CORE_HOURS);
        // sizes
        put("executorMemoryBytes", "Executor memory", Kind.BYTES);
        put("driverMemoryBytes", "Driver memory", Kind.BYTES);
        put("overheadBytes", "Memory overhead", Kind.BYTES);
        put("memoryBytes", "Memory", Kind.BYTES);
        put("memoryPerCoreBytes", "Memory per core", Kind.BYTES);
        put("clusterMemoryPerCoreBytes", "Typical memory per core", Kind.BYTES);
        put("memoryBytesSpilled", "Spilled (size in memory)", Kind.BYTES);
        put("diskBytesSpilled", "Spilled to disk", Kind.BYTES);
        put("largestSpillTaskMemoryBytes", "Largest spill of one task (in memory)", Kind.BYTES);
        put("largestSpillTaskDiskBytes", "Largest spill of one task (on disk)", Kind.BYTES);
        put("inputBytes", "Input read", Kind.BYTES);
        put("outputBytes", "Output written", Kind.BYTES);
        put("shuffleReadBytes", "Shuffle read", Kind.BYTES);
        put("shuffleWriteBytes", "Shuffle write", Kind.BYTES);
        put("smallSideBytes", "Smaller join side", Kind.BYTES);
        put("largeSideBytes", "Larger join side", Kind.BYTES);
        put("largestBytes", "Largest partition", Kind.BYTES);
        put("limitBytes", "Limit", Kind.BYTES);
        put("rddSerializedBytes", "RDD data serialized", Kind.BYTES);
        put("autoBroadcastJoinThreshold", "Broadcast threshold now", Kind.TEXT);
        put("suggestedThreshold", "Broadcast threshold to try", Kind.TEXT);
        // shares (0..1, shown as %) and multiples
        put("gcRatio", "GC share of run time", Kind.SHARE);
        put("failedRatio", "Share of attempts that failed", Kind.SHARE);
        put("idleRatio", "Share of core time idle", Kind.SHARE);
        put("noTaskShare", "Share of the application with no task running", Kind.SHARE);
        put("driverShare", "Driver-side share of task time", Kind.SHARE);
        put("overheadShare", "Overhead share of executor memory", Kind.SHARE);
        put("overheadRatio", "Overhead ÷ executor memory", Kind.SHARE);
        put("spillRatio", "Spill ÷ data read or written", Kind.SHARE);
        put("ratio", "Ratio", Kind.TIMES);
        put("durationRatio", "Wall time ÷ median of previous runs", Kind.TIMES);
        put("taskTimeRatio", "Task time ÷ median of previous runs", Kind.TIMES);
        put("lowFactor", "LOW from", Kind.TIMES);
        put("highFactor", "HIGH from", Kind.TIMES);
        // counts
        put("numTasks", "Tasks", Kind.COUNT);
        put("tasks", "Tasks", Kind.COUNT);
        put("failedTasks", "Failed task attempts", Kind.COUNT);
        put("killedTasks", "Killed task attempts", Kind.COUNT);
        put("taskAttempts", "Task attempts", Kind.COUNT);
        put("failedJobs", "Failed jobs", Kind.COUNT);
        put("totalJobs", "Jobs", Kind.COUNT);
        put("executors", "Executors", Kind.COUNT);
        put("executorCores", "Cores per executor", Kind.COUNT);
        put("minExecutors", "Minimum executors", Kind.COUNT);
        put("maxExecutors", "Maximum executors", Kind.COUNT);
        put("initialExecutors", "Initial executors", Kind.COUNT);
        put("suggestedPartitions", "Partitions to try", Kind.COUNT);
        put("widestStageTasks", "Tasks of the widest stage", Kind.COUNT);
        put("rddStages", "RDD stages", Kind.COUNT);
        put("rddShuffleRecords", "RDD records shuffled", Kind.COUNT);
        put("previousRuns", "Previous runs compared", Kind.COUNT);
        put("count", "Count", Kind.COUNT);
        put("endReasons", "End reasons of the failed attempts", Kind.COUNT);
        // where
        put("stageId", "Stage", Kind.TEXT);
        put("attemptId", "Stage attempt", Kind.TEXT);
        put("afterStage", "After stage", Kind.STAGE);
        put("beforeStage", "Before stage", Kind.STAGE);
        put("previousAppIds", "Previous runs", Kind.APP);
        put("jobIds", "Jobs", Kind.TEXT);
        put("failedJobIds", "Failed jobs", Kind.TEXT);
        put("executionId", "SQL query", Kind.TEXT);
        put("executorId", "Executor", Kind.TEXT);
        put("host", "Host", Kind.TEXT);
        put("taskId", "Task", Kind.TEXT);
        put("slowestTaskId", "Slowest task", Kind.TEXT);
        put("slowestTaskPartition", "Slowest task's partition", Kind.TEXT);
        put("slowestTaskExecutor", "Slowest task's executor", Kind.TEXT);
        put("largestSpillTaskId", "Task with the largest spill", Kind.TEXT);
        put("queue", "YARN queue", Kind.TEXT);
        // what
        put("metric", "Measured by", Kind.TEXT);
        put("stageKind", "Stage kind", Kind.TEXT);
        put("serializer", "Serializer", Kind.TEXT);
        put("sparkVersion", "Spark version", Kind.TEXT);
        put("cancelled", "Cancelled", Kind.TEXT);
        put("dataSkewed", "Data skewed too", Kind.TEXT);
        put("distributions", "Task-time distribution", Kind.TEXT);
        put("busiest", "Busiest executors", Kind.TEXT);
        put("longestGaps", "Longest stretches with no task running", Kind.TEXT);
        put("error", "Error", Kind.TEXT);

        // Regression is the server's own finding, not a Heuristic, so its labels stay here.
        put("Regression", "ratio", "Times the median of previous runs", Kind.TIMES);
        put("Regression", "durationMs", "This run's wall time", Kind.DURATION_MS);
        put("Regression", "taskTimeMs", "This run's task time", Kind.DURATION_MS);
        put("Regression", "medianDurationMs", "Median wall time of previous runs", Kind.DURATION_MS);
        put("Regression", "medianTaskTimeMs", "Median task time of previous runs", Kind.DURATION_MS);
        put("Regression", "durationRatio", "Wall time, times the median", Kind.TIMES);
        put("Regression", "taskTimeRatio", "Task time, times the median", Kind.TIMES);
        put("Regression", "inputRatio", "Input read, times the median", Kind.TIMES);
        put("Regression", "perByteDurationRatio", "Wall time per byte of input, times the median", Kind.TIMES);
        put("Regression", "perByteTaskTimeRatio", "Task time per byte of input, times the median", Kind.TIMES);
        put("Regression", "dataReadWritten", "Data read and written", Kind.TEXT);
        put("Regression", "data", "Data", Kind.TEXT);
        put("Regression", "thisRunBytes", "This run", Kind.BYTES);
        put("Regression", "medianBytes", "Median of previous runs", Kind.BYTES);
        put("Regression", "baselineAppId", "Compared in detail with", Kind.APP);
        put("Regression", "settingsChanged", "Settings changed since that run", Kind.TEXT);
        put("Regression", "key", "Setting", Kind.TEXT);
        put("Regression", "before", "Before", Kind.TEXT);
        put("Regression", "after", "Now", Kind.TEXT);
        put("Regression", "operatorsAdded", "Plan operators added", Kind.COUNT);
        put("Regression", "operatorsRemoved", "Plan operators removed", Kind.COUNT);
        put("Regression", "stagesGrown", "Stages whose executor time grew most", Kind.TEXT);
        put("Regression", "stage", "Stage", Kind.TEXT);
        put("Regression", "beforeMs", "Before", Kind.DURATION_MS);
        put("Regression", "afterMs", "Now", Kind.DURATION_MS);
    }

    /** What the heuristics on the classpath declare, read once: heuristics are stateless and never change. */
    private static final class Declared {
        static final Map<String, Label> BY_HEURISTIC = declared(HeuristicEngine.load().heuristics());
    }

    static Map<String, Label> declared(List<Heuristic> heuristics) {
        Map<String, Label> m = new HashMap<>();
        for (Heuristic h : heuristics) {
            Map<String, DetailLabel> labels;
            try {
                labels = h.detailLabels();
            } catch (RuntimeException e) {
                continue; // a custom heuristic's broken declaration costs it its labels, not the page
            }
            if (labels == null) {
                continue;
            }
            labels.forEach((key, l) -> m.put(h.id() + "." + key, new Label(l.text(), kind(l.unit()))));
        }
        return Map.copyOf(m);
    }

    static Kind kind(DetailLabel.Unit unit) {
        return Kind.valueOf(unit.name());
    }

    private DetailLabels() {
    }

    static Label of(String heuristic, String key) {
        Label l = Declared.BY_HEURISTIC.get(heuristic + "." + key);
        if (l == null) {
            l = BY_HEURISTIC.get(heuristic + "." + key);
        }
        if (l == null) {
            l = KEYS.get(key);
        }
        return l != null ? l : fromName(key);
    }

    /** A Spark task metric by its TaskMetricDistributions path: "executorRunTime" → "Executor run time", ms. */
    static Label metric(String path) {
        String last = path.substring(path.lastIndexOf('.') + 1);
        String prefix = path.startsWith("shuffleReadMetrics.") ? "Shuffle read: "
                : path.startsWith("shuffleWriteMetrics.") ? "Shuffle write: "
                : path.startsWith("inputMetrics.") ? "Input: " : path.startsWith("outputMetrics.") ? "Output: " : "";
        String words = words(last);
        String lower = last.toLowerCase(Locale.ROOT);
        Kind kind;
        if (lower.endsWith("cputime") || path.equals("shuffleWriteMetrics.writeTime")) {
            kind = Kind.DURATION_NS; // Spark reports CPU and shuffle write times in nanoseconds
        } else if (lower.endsWith("time") || lower.equals("duration") || lower.endsWith("delay")
                || lower.endsWith("duration")) {
            kind = Kind.DURATION_MS;
        } else if (lower.contains("bytes") || lower.endsWith("size") || lower.endsWith("memory")
                || lower.endsWith("spilled")) {
            kind = Kind.BYTES;
        } else {
            kind = Kind.COUNT;
        }
        String label = switch (path) {
            case "duration" -> "Task duration";
            case "jvmGcTime" -> "GC time";
            case "executorRunTime" -> "Executor run time";
            case "memoryBytesSpilled" -> "Spilled (size in memory)";
            case "diskBytesSpilled" -> "Spilled to disk";
            default -> prefix + (prefix.isEmpty() ? words : words.toLowerCase(Locale.ROOT));
        };
        return new Label(label, kind);
    }

    /** "maxWaitMs" → "Max wait" (a duration); "spillBytes" → "Spill" (a size). */
    static Label fromName(String key) {
        Kind kind = Kind.TEXT;
        String base = key;
        if (key.endsWith("Ms") && key.length() > 2) {
            kind = Kind.DURATION_MS;
            base = key.substring(0, key.length() - 2);
        } else if (key.endsWith("Ns") && key.length() > 2) {
            kind = Kind.DURATION_NS;
            base = key.substring(0, key.length() - 2);
        } else if (key.endsWith("Bytes") && key.length() > 5) {
            kind = Kind.BYTES;
            base = key.substring(0, key.length() - 5);
        } else if (key.endsWith("Share")) {
            kind = Kind.SHARE;
        }
        return new Label(words(base), kind);
    }

    /** camelCase → "Camel case". */
    static String words(String camel) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (Character.isUpperCase(c) && i > 0 && !Character.isUpperCase(camel.charAt(i - 1))) {
                b.append(' ');
            }
            b.append(i == 0 ? Character.toUpperCase(c) : Character.isUpperCase(c) && (i + 1 >= camel.length()
                    || !Character.isUpperCase(camel.charAt(i + 1))) ? Character.toLowerCase(c) : c);
        }
        return b.toString();
    }
}
