package io.sparkscope.core.analysis.efficiency;

/**
 * A setting that makes Spark measure (and log) executor memory, for applications whose peaks are missing.
 *
 * @see PeakCoverage#missing()
 */
public enum MeasuringSetting {
    /** Per-stage peaks of every executor and the driver, written to the event log. */
    LOG_STAGE_EXECUTOR_METRICS("spark.eventLog.logStageExecutorMetrics", "true",
            "writes each executor's and the driver's memory peaks per stage into the event log"),
    /** Samples while tasks run, so tasks shorter than a heartbeat report peaks too. */
    METRICS_POLLING_INTERVAL("spark.executor.metrics.pollingInterval", "1s",
            "samples executor memory while tasks run, so tasks shorter than a heartbeat report peaks too"),
    /** The resident memory of the executor's process tree, Python workers included (Linux). */
    PROCESS_TREE_METRICS("spark.executor.processTreeMetrics.enabled", "true",
            "measures the resident memory of each executor's processes, Python workers included; Linux only");

    public final String key;
    public final String value;
    /** What setting it measures, as a clause. */
    public final String measures;

    MeasuringSetting(String key, String value, String measures) {
        this.key = key;
        this.value = value;
        this.measures = measures;
    }
}
