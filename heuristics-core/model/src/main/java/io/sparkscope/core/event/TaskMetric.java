package io.sparkscope.core.event;

/**
 * The raw per-task metrics Spark reports in a task-end event ("Task Metrics" in an event log, {@code TaskMetrics}
 * in a live listener). Each constant names the field of Spark's REST {@code StageData} that sums it, so the stage
 * totals can be written out under Spark's own names.
 *
 * <p>Times are milliseconds except the CPU times and {@code shuffleWriteTime}, which Spark reports in nanoseconds.
 * A metric an older Spark did not report is 0 (what the History Server shows for such logs).
 *
 * <p>Add a new metric at the end, never in between: the order is how the database stores a task's metrics (one array
 * element per constant) and how a stored stage's task digest is computed.
 */
public enum TaskMetric {
    EXECUTOR_DESERIALIZE_TIME("executorDeserializeTime"),
    EXECUTOR_DESERIALIZE_CPU_TIME("executorDeserializeCpuTime"),
    EXECUTOR_RUN_TIME("executorRunTime"),
    EXECUTOR_CPU_TIME("executorCpuTime"),
    RESULT_SIZE("resultSize"),
    JVM_GC_TIME("jvmGcTime"),
    RESULT_SERIALIZATION_TIME("resultSerializationTime"),
    MEMORY_BYTES_SPILLED("memoryBytesSpilled"),
    DISK_BYTES_SPILLED("diskBytesSpilled"),
    PEAK_EXECUTION_MEMORY("peakExecutionMemory"),
    INPUT_BYTES("inputBytes"),
    INPUT_RECORDS("inputRecords"),
    OUTPUT_BYTES("outputBytes"),
    OUTPUT_RECORDS("outputRecords"),
    SHUFFLE_REMOTE_BLOCKS_FETCHED("shuffleRemoteBlocksFetched"),
    SHUFFLE_LOCAL_BLOCKS_FETCHED("shuffleLocalBlocksFetched"),
    SHUFFLE_FETCH_WAIT_TIME("shuffleFetchWaitTime"),
    SHUFFLE_REMOTE_BYTES_READ("shuffleRemoteBytesRead"),
    SHUFFLE_REMOTE_BYTES_READ_TO_DISK("shuffleRemoteBytesReadToDisk"),
    SHUFFLE_LOCAL_BYTES_READ("shuffleLocalBytesRead"),
    SHUFFLE_RECORDS_READ("shuffleReadRecords"),
    SHUFFLE_REMOTE_REQS_DURATION("shuffleRemoteReqsDuration"),
    SHUFFLE_CORRUPT_MERGED_BLOCK_CHUNKS("shuffleCorruptMergedBlockChunks"),
    SHUFFLE_MERGED_FETCH_FALLBACK_COUNT("shuffleMergedFetchFallbackCount"),
    SHUFFLE_MERGED_REMOTE_BLOCKS_FETCHED("shuffleMergedRemoteBlocksFetched"),
    SHUFFLE_MERGED_LOCAL_BLOCKS_FETCHED("shuffleMergedLocalBlocksFetched"),
    SHUFFLE_MERGED_REMOTE_CHUNKS_FETCHED("shuffleMergedRemoteChunksFetched"),
    SHUFFLE_MERGED_LOCAL_CHUNKS_FETCHED("shuffleMergedLocalChunksFetched"),
    SHUFFLE_MERGED_REMOTE_BYTES_READ("shuffleMergedRemoteBytesRead"),
    SHUFFLE_MERGED_LOCAL_BYTES_READ("shuffleMergedLocalBytesRead"),
    SHUFFLE_MERGED_REMOTE_REQS_DURATION("shuffleMergedRemoteReqsDuration"),
    SHUFFLE_BYTES_WRITTEN("shuffleWriteBytes"),
    SHUFFLE_WRITE_TIME("shuffleWriteTime"),
    SHUFFLE_RECORDS_WRITTEN("shuffleWriteRecords");

    private static final TaskMetric[] ALL = values();

    /** Field name in Spark's REST {@code StageData} for the stage-level sum of this metric. */
    public final String stageTotalName;

    TaskMetric(String stageTotalName) {
        this.stageTotalName = stageTotalName;
    }

    public static int count() {
        return ALL.length;
    }

    public static TaskMetric byOrdinal(int ordinal) {
        return ALL[ordinal];
    }
}
