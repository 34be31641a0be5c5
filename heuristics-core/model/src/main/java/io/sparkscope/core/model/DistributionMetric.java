package io.sparkscope.core.model;

import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;

/**
 * The metrics of Spark's REST {@code TaskMetricDistributions} ({@code …/stages/{id}/{attempt}/taskSummary}), with
 * their JSON paths, in Spark's order. Derived ones are computed exactly as Spark's {@code AppStatusUtils} does
 * (docs/architecture.md, "Numbers that match Spark").
 */
public enum DistributionMetric {
    DURATION("duration"),
    EXECUTOR_DESERIALIZE_TIME("executorDeserializeTime"),
    EXECUTOR_DESERIALIZE_CPU_TIME("executorDeserializeCpuTime"),
    EXECUTOR_RUN_TIME("executorRunTime"),
    EXECUTOR_CPU_TIME("executorCpuTime"),
    RESULT_SIZE("resultSize"),
    JVM_GC_TIME("jvmGcTime"),
    RESULT_SERIALIZATION_TIME("resultSerializationTime"),
    GETTING_RESULT_TIME("gettingResultTime"),
    SCHEDULER_DELAY("schedulerDelay"),
    PEAK_EXECUTION_MEMORY("peakExecutionMemory"),
    MEMORY_BYTES_SPILLED("memoryBytesSpilled"),
    DISK_BYTES_SPILLED("diskBytesSpilled"),
    INPUT_BYTES_READ("inputMetrics.bytesRead"),
    INPUT_RECORDS_READ("inputMetrics.recordsRead"),
    OUTPUT_BYTES_WRITTEN("outputMetrics.bytesWritten"),
    OUTPUT_RECORDS_WRITTEN("outputMetrics.recordsWritten"),
    SHUFFLE_READ_BYTES("shuffleReadMetrics.readBytes"),
    SHUFFLE_READ_RECORDS("shuffleReadMetrics.readRecords"),
    SHUFFLE_REMOTE_BLOCKS_FETCHED("shuffleReadMetrics.remoteBlocksFetched"),
    SHUFFLE_LOCAL_BLOCKS_FETCHED("shuffleReadMetrics.localBlocksFetched"),
    SHUFFLE_FETCH_WAIT_TIME("shuffleReadMetrics.fetchWaitTime"),
    SHUFFLE_REMOTE_BYTES_READ("shuffleReadMetrics.remoteBytesRead"),
    SHUFFLE_REMOTE_BYTES_READ_TO_DISK("shuffleReadMetrics.remoteBytesReadToDisk"),
    SHUFFLE_TOTAL_BLOCKS_FETCHED("shuffleReadMetrics.totalBlocksFetched"),
    SHUFFLE_REMOTE_REQS_DURATION("shuffleReadMetrics.remoteReqsDuration"),
    PUSH_CORRUPT_MERGED_BLOCK_CHUNKS("shuffleReadMetrics.shufflePushReadMetricsDist.corruptMergedBlockChunks"),
    PUSH_MERGED_FETCH_FALLBACK_COUNT("shuffleReadMetrics.shufflePushReadMetricsDist.mergedFetchFallbackCount"),
    PUSH_REMOTE_MERGED_BLOCKS_FETCHED("shuffleReadMetrics.shufflePushReadMetricsDist.remoteMergedBlocksFetched"),
    PUSH_LOCAL_MERGED_BLOCKS_FETCHED("shuffleReadMetrics.shufflePushReadMetricsDist.localMergedBlocksFetched"),
    PUSH_REMOTE_MERGED_CHUNKS_FETCHED("shuffleReadMetrics.shufflePushReadMetricsDist.remoteMergedChunksFetched"),
    PUSH_LOCAL_MERGED_CHUNKS_FETCHED("shuffleReadMetrics.shufflePushReadMetricsDist.localMergedChunksFetched"),
    PUSH_REMOTE_MERGED_BYTES_READ("shuffleReadMetrics.shufflePushReadMetricsDist.remoteMergedBytesRead"),
    PUSH_LOCAL_MERGED_BYTES_READ("shuffleReadMetrics.shufflePushReadMetricsDist.localMergedBytesRead"),
    PUSH_REMOTE_MERGED_REQS_DURATION("shuffleReadMetrics.shufflePushReadMetricsDist.remoteMergedReqsDuration"),
    SHUFFLE_WRITE_BYTES("shuffleWriteMetrics.writeBytes"),
    SHUFFLE_WRITE_RECORDS("shuffleWriteMetrics.writeRecords"),
    SHUFFLE_WRITE_TIME("shuffleWriteMetrics.writeTime");

    private static final DistributionMetric[] ALL = values();
    /** Per ordinal: the TaskMetric it copies, or null when derived (see {@link #taskMetric()}). */
    private static final TaskMetric[] SOURCES = new TaskMetric[ALL.length];

    static {
        for (DistributionMetric m : ALL) {
            SOURCES[m.ordinal()] = m.directSource();
        }
    }

    /** Dotted JSON path inside {@code TaskMetricDistributions}. */
    public final String path;

    DistributionMetric(String path) {
        this.path = path;
    }

    public static int count() {
        return ALL.length;
    }

    public static DistributionMetric byOrdinal(int ordinal) {
        return ALL[ordinal];
    }

    public static DistributionMetric byPath(String path) {
        for (DistributionMetric m : ALL) {
            if (m.path.equals(path)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown task metric '" + path + "'");
    }

    /**
     * Spark's task duration ({@code finish − launch}) of a finished task, or {@link TaskTimes#UNKNOWN} when its
     * timestamps are unset or impossible ({@link TaskTimes}).
     */
    public static long duration(TaskInfo info) {
        return TaskTimes.duration(info.launchTime(), info.finishTime());
    }

    /**
     * Spark's {@code AppStatusUtils.gettingResultTime} for a finished task, or {@link TaskTimes#UNKNOWN} when its
     * timestamps cannot give it.
     */
    public static long gettingResultTime(TaskInfo info) {
        return TaskTimes.gettingResult(info.launchTime(), info.gettingResultTime(), info.finishTime());
    }

    /**
     * Spark's {@code AppStatusUtils.schedulerDelay}: the driver-side remainder of a task's duration, or
     * {@link TaskTimes#UNKNOWN} when the duration or the getting-result time is.
     */
    public static long schedulerDelay(TaskInfo info, TaskMetrics m) {
        long duration = duration(info);
        long gettingResult = gettingResultTime(info);
        if (duration == TaskTimes.UNKNOWN || gettingResult == TaskTimes.UNKNOWN) {
            return TaskTimes.UNKNOWN;
        }
        return Math.max(0L, duration
                - m.get(TaskMetric.EXECUTOR_RUN_TIME)
                - m.get(TaskMetric.EXECUTOR_DESERIALIZE_TIME)
                - m.get(TaskMetric.RESULT_SERIALIZATION_TIME)
                - gettingResult);
    }

    /**
     * Whether this metric is computed from the task's driver-stamped timestamps (duration, getting-result time,
     * scheduler delay): those are left out of the quantiles for a task whose timestamps are unknown.
     */
    public boolean fromTimestamps() {
        return this == DURATION || this == GETTING_RESULT_TIME || this == SCHEDULER_DELAY;
    }

    /**
     * The {@link TaskMetric} this metric is a plain copy of ({@code valueOf(info, m) == m.get(taskMetric())}), or
     * null for the derived ones (duration, getting-result time, scheduler delay, shuffle read bytes, total blocks
     * fetched), which need {@link #valueOf}.
     */
    public TaskMetric taskMetric() {
        return SOURCES[ordinal()];
    }

    private TaskMetric directSource() {
        return switch (this) {
            case DURATION, GETTING_RESULT_TIME, SCHEDULER_DELAY, SHUFFLE_READ_BYTES, SHUFFLE_TOTAL_BLOCKS_FETCHED -> null;
            case EXECUTOR_DESERIALIZE_TIME -> TaskMetric.EXECUTOR_DESERIALIZE_TIME;
            case EXECUTOR_DESERIALIZE_CPU_TIME -> TaskMetric.EXECUTOR_DESERIALIZE_CPU_TIME;
            case EXECUTOR_RUN_TIME -> TaskMetric.EXECUTOR_RUN_TIME;
            case EXECUTOR_CPU_TIME -> TaskMetric.EXECUTOR_CPU_TIME;
            case RESULT_SIZE -> TaskMetric.RESULT_SIZE;
            case JVM_GC_TIME -> TaskMetric.JVM_GC_TIME;
            case RESULT_SERIALIZATION_TIME -> TaskMetric.RESULT_SERIALIZATION_TIME;
            case PEAK_EXECUTION_MEMORY -> TaskMetric.PEAK_EXECUTION_MEMORY;
            case MEMORY_BYTES_SPILLED -> TaskMetric.MEMORY_BYTES_SPILLED;
            case DISK_BYTES_SPILLED -> TaskMetric.DISK_BYTES_SPILLED;
            case INPUT_BYTES_READ -> TaskMetric.INPUT_BYTES;
            case INPUT_RECORDS_READ -> TaskMetric.INPUT_RECORDS;
            case OUTPUT_BYTES_WRITTEN -> TaskMetric.OUTPUT_BYTES;
            case OUTPUT_RECORDS_WRITTEN -> TaskMetric.OUTPUT_RECORDS;
            case SHUFFLE_READ_RECORDS -> TaskMetric.SHUFFLE_RECORDS_READ;
            case SHUFFLE_REMOTE_BLOCKS_FETCHED -> TaskMetric.SHUFFLE_REMOTE_BLOCKS_FETCHED;
            case SHUFFLE_LOCAL_BLOCKS_FETCHED -> TaskMetric.SHUFFLE_LOCAL_BLOCKS_FETCHED;
            case SHUFFLE_FETCH_WAIT_TIME -> TaskMetric.SHUFFLE_FETCH_WAIT_TIME;
            case SHUFFLE_REMOTE_BYTES_READ -> TaskMetric.SHUFFLE_REMOTE_BYTES_READ;
            case SHUFFLE_REMOTE_BYTES_READ_TO_DISK -> TaskMetric.SHUFFLE_REMOTE_BYTES_READ_TO_DISK;
            case SHUFFLE_REMOTE_REQS_DURATION -> TaskMetric.SHUFFLE_REMOTE_REQS_DURATION;
            case PUSH_CORRUPT_MERGED_BLOCK_CHUNKS -> TaskMetric.SHUFFLE_CORRUPT_MERGED_BLOCK_CHUNKS;
            case PUSH_MERGED_FETCH_FALLBACK_COUNT -> TaskMetric.SHUFFLE_MERGED_FETCH_FALLBACK_COUNT;
            case PUSH_REMOTE_MERGED_BLOCKS_FETCHED -> TaskMetric.SHUFFLE_MERGED_REMOTE_BLOCKS_FETCHED;
            case PUSH_LOCAL_MERGED_BLOCKS_FETCHED -> TaskMetric.SHUFFLE_MERGED_LOCAL_BLOCKS_FETCHED;
            case PUSH_REMOTE_MERGED_CHUNKS_FETCHED -> TaskMetric.SHUFFLE_MERGED_REMOTE_CHUNKS_FETCHED;
            case PUSH_LOCAL_MERGED_CHUNKS_FETCHED -> TaskMetric.SHUFFLE_MERGED_LOCAL_CHUNKS_FETCHED;
            case PUSH_REMOTE_MERGED_BYTES_READ -> TaskMetric.SHUFFLE_MERGED_REMOTE_BYTES_READ;
            case PUSH_LOCAL_MERGED_BYTES_READ -> TaskMetric.SHUFFLE_MERGED_LOCAL_BYTES_READ;
            case PUSH_REMOTE_MERGED_REQS_DURATION -> TaskMetric.SHUFFLE_MERGED_REMOTE_REQS_DURATION;
            case SHUFFLE_WRITE_BYTES -> TaskMetric.SHUFFLE_BYTES_WRITTEN;
            case SHUFFLE_WRITE_RECORDS -> TaskMetric.SHUFFLE_RECORDS_WRITTEN;
            case SHUFFLE_WRITE_TIME -> TaskMetric.SHUFFLE_WRITE_TIME;
        };
    }

    /**
     * This metric's value for one finished task; {@link TaskTimes#UNKNOWN} for a {@link #fromTimestamps()} metric of a
     * task whose timestamps are unknown.
     */
    public long valueOf(TaskInfo info, TaskMetrics m) {
        return switch (this) {
            case DURATION -> duration(info);
            case EXECUTOR_DESERIALIZE_TIME -> m.get(TaskMetric.EXECUTOR_DESERIALIZE_TIME);
            case EXECUTOR_DESERIALIZE_CPU_TIME -> m.get(TaskMetric.EXECUTOR_DESERIALIZE_CPU_TIME);
            case EXECUTOR_RUN_TIME -> m.get(TaskMetric.EXECUTOR_RUN_TIME);
            case EXECUTOR_CPU_TIME -> m.get(TaskMetric.EXECUTOR_CPU_TIME);
            case RESULT_SIZE -> m.get(TaskMetric.RESULT_SIZE);
            case JVM_GC_TIME -> m.get(TaskMetric.JVM_GC_TIME);
            case RESULT_SERIALIZATION_TIME -> m.get(TaskMetric.RESULT_SERIALIZATION_TIME);
            case GETTING_RESULT_TIME -> gettingResultTime(info);
            case SCHEDULER_DELAY -> schedulerDelay(info, m);
            case PEAK_EXECUTION_MEMORY -> m.get(TaskMetric.PEAK_EXECUTION_MEMORY);
            case MEMORY_BYTES_SPILLED -> m.get(TaskMetric.MEMORY_BYTES_SPILLED);
            case DISK_BYTES_SPILLED -> m.get(TaskMetric.DISK_BYTES_SPILLED);
            case INPUT_BYTES_READ -> m.get(TaskMetric.INPUT_BYTES);
            case INPUT_RECORDS_READ -> m.get(TaskMetric.INPUT_RECORDS);
            case OUTPUT_BYTES_WRITTEN -> m.get(TaskMetric.OUTPUT_BYTES);
            case OUTPUT_RECORDS_WRITTEN -> m.get(TaskMetric.OUTPUT_RECORDS);
            case SHUFFLE_READ_BYTES -> m.shuffleReadBytes();
            case SHUFFLE_READ_RECORDS -> m.get(TaskMetric.SHUFFLE_RECORDS_READ);
            case SHUFFLE_REMOTE_BLOCKS_FETCHED -> m.get(TaskMetric.SHUFFLE_REMOTE_BLOCKS_FETCHED);
            case SHUFFLE_LOCAL_BLOCKS_FETCHED -> m.get(TaskMetric.SHUFFLE_LOCAL_BLOCKS_FETCHED);
            case SHUFFLE_FETCH_WAIT_TIME -> m.get(TaskMetric.SHUFFLE_FETCH_WAIT_TIME);
            case SHUFFLE_REMOTE_BYTES_READ -> m.get(TaskMetric.SHUFFLE_REMOTE_BYTES_READ);
            case SHUFFLE_REMOTE_BYTES_READ_TO_DISK -> m.get(TaskMetric.SHUFFLE_REMOTE_BYTES_READ_TO_DISK);
            case SHUFFLE_TOTAL_BLOCKS_FETCHED -> m.shuffleTotalBlocksFetched();
            case SHUFFLE_REMOTE_REQS_DURATION -> m.get(TaskMetric.SHUFFLE_REMOTE_REQS_DURATION);
            case PUSH_CORRUPT_MERGED_BLOCK_CHUNKS -> m.get(TaskMetric.SHUFFLE_CORRUPT_MERGED_BLOCK_CHUNKS);
            case PUSH_MERGED_FETCH_FALLBACK_COUNT -> m.get(TaskMetric.SHUFFLE_MERGED_FETCH_FALLBACK_COUNT);
            case PUSH_REMOTE_MERGED_BLOCKS_FETCHED -> m.get(TaskMetric.SHUFFLE_MERGED_REMOTE_BLOCKS_FETCHED);
            case PUSH_LOCAL_MERGED_BLOCKS_FETCHED -> m.get(TaskMetric.SHUFFLE_MERGED_LOCAL_BLOCKS_FETCHED);
            case PUSH_REMOTE_MERGED_CHUNKS_FETCHED -> m.get(TaskMetric.SHUFFLE_MERGED_REMOTE_CHUNKS_FETCHED);
            case PUSH_LOCAL_MERGED_CHUNKS_FETCHED -> m.get(TaskMetric.SHUFFLE_MERGED_LOCAL_CHUNKS_FETCHED);
            case PUSH_REMOTE_MERGED_BYTES_READ -> m.get(TaskMetric.SHUFFLE_MERGED_REMOTE_BYTES_READ);
            case PUSH_LOCAL_MERGED_BYTES_READ -> m.get(TaskMetric.SHUFFLE_MERGED_LOCAL_BYTES_READ);
            case PUSH_REMOTE_MERGED_REQS_DURATION -> m.get(TaskMetric.SHUFFLE_MERGED_REMOTE_REQS_DURATION);
            case SHUFFLE_WRITE_BYTES -> m.get(TaskMetric.SHUFFLE_BYTES_WRITTEN);
            case SHUFFLE_WRITE_RECORDS -> m.get(TaskMetric.SHUFFLE_RECORDS_WRITTEN);
            case SHUFFLE_WRITE_TIME -> m.get(TaskMetric.SHUFFLE_WRITE_TIME);
        };
    }
}
