package io.sparkscope.core.analysis.timeline;

/**
 * The five parts of a task's duration, in the order they happen: the driver offers the task (launch
 * time), the executor deserializes it, runs it and serializes its result, the driver fetches an indirect result
 * (getting result) and marks the task finished (finish time). Only the three middle parts are measured on the
 * executor; scheduler delay is what remains of the driver-stamped duration, so it also holds the driver's own
 * queueing, the task's serialization and RPC both ways, and the wait before the driver marks the task done.
 */
public enum TaskPhase {
    SCHEDULER_DELAY("schedulerDelay", "Scheduler delay (driver-side remainder)", "scheduler delay", true),
    DESERIALIZATION("executorDeserializeTime", "Task deserialization", "deserialization", false),
    RUN("executorRunTime", "Executor computing", "run", false),
    RESULT_SERIALIZATION("resultSerializationTime", "Result serialization", "result serialization", false),
    GETTING_RESULT("gettingResultTime", "Getting result (driver)", "getting result", true);

    /** Spark's name for the time (REST task data / TaskMetricDistributions). */
    public final String key;
    public final String label;
    /** For hover text. */
    public final String shortLabel;
    /** Measured (or left over) on the driver rather than on the executor. */
    public final boolean driverSide;

    TaskPhase(String key, String label, String shortLabel, boolean driverSide) {
        this.key = key;
        this.label = label;
        this.shortLabel = shortLabel;
        this.driverSide = driverSide;
    }

    /** CSS-friendly id: {@code scheduler-delay}, {@code run}, … */
    public String cssName() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
