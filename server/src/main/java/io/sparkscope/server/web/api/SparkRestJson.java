package io.sparkscope.server.web.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.ingest.fetch.SparkDates;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Jobs, executors and tasks in the shape of Spark's REST API v1 ({@code JobData}, {@code ExecutorSummary},
 * {@code TaskData}): Spark's field names and nesting, its status words, its dates
 * ({@code 2015-02-03T16:43:00.906GMT}), and a field Spark leaves out when it has no value (an {@code Option}) left
 * out here too. What the recorder does not keep is written as Spark writes it for an application that had none of
 * it: no log links, attributes, resources or accumulator updates, nothing cached (RDD blocks, memory and disk used
 * 0), never excluded.
 */
final class SparkRestJson {
    /** Spark's ExecutorMetricType names, in the order its golden files list them. */
    static final List<String> PEAK_METRICS = List.of("ConcurrentGCCount", "ConcurrentGCTime", "DirectPoolMemory",
            "JVMHeapMemory", "JVMOffHeapMemory", "MajorGCCount", "MajorGCTime", "MappedPoolMemory", "MinorGCCount",
            "MinorGCTime", "OffHeapExecutionMemory", "OffHeapStorageMemory", "OffHeapUnifiedMemory",
            "OnHeapExecutionMemory", "OnHeapStorageMemory", "OnHeapUnifiedMemory", "ProcessTreeJVMRSSMemory",
            "ProcessTreeJVMVMemory", "ProcessTreeOtherRSSMemory", "ProcessTreeOtherVMemory",
            "ProcessTreePythonRSSMemory", "ProcessTreePythonVMemory", "TotalGCTime");

    private SparkRestJson() {
    }

    /** Spark's date, or null (left out) for an unknown time. */
    static String date(long epochMs) {
        return epochMs > 0 ? SparkDates.format(epochMs) : null;
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Job(int jobId, String name, String description, String submissionTime, String completionTime,
               List<Integer> stageIds, String jobGroup, List<String> jobTags, String status, int numTasks,
               int numActiveTasks, int numCompletedTasks, int numSkippedTasks, int numFailedTasks, int numKilledTasks,
               int numCompletedIndices, int numActiveStages, int numCompletedStages, int numSkippedStages,
               int numFailedStages, Map<String, Integer> killedTasksSummary) {

        static Job of(JobSummary j) {
            return new Job(j.jobId(), j.name(), j.description(), date(j.submissionTime()), date(j.completionTime()),
                    j.stageIds(), j.jobGroup(), j.jobTags(), j.status().name(), j.numTasks(), j.numActiveTasks(),
                    j.numCompletedTasks(), j.numSkippedTasks(), j.numFailedTasks(), j.numKilledTasks(),
                    j.numCompletedIndices(), j.numActiveStages(), j.numCompletedStages(), j.numSkippedStages(),
                    j.numFailedStages(), j.killedTasksSummary());
        }
    }

    record MemoryMetrics(long usedOnHeapStorageMemory, long usedOffHeapStorageMemory, long totalOnHeapStorageMemory,
                         long totalOffHeapStorageMemory) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Executor(String id, String hostPort, boolean isActive, int rddBlocks, long memoryUsed, long diskUsed,
                    int totalCores, int maxTasks, int activeTasks, int failedTasks, int completedTasks, int totalTasks,
                    long totalDuration, long totalGCTime, long totalInputBytes, long totalShuffleRead,
                    long totalShuffleWrite, boolean isBlacklisted, long maxMemory, String addTime, String removeTime,
                    String removeReason, Map<String, String> executorLogs, MemoryMetrics memoryMetrics,
                    List<Integer> blacklistedInStages, Map<String, Long> peakMemoryMetrics,
                    Map<String, String> attributes, Map<String, Object> resources, int resourceProfileId,
                    boolean isExcluded, List<Integer> excludedInStages) {

        /**
         * @param taskCpus      {@code spark.task.cpus}: Spark's task slots per executor are its cores divided by it
         * @param appDurationMs the application's run time so far: Spark shows it as the driver's task time
         */
        static Executor of(ExecutorSummary e, int taskCpus, long appDurationMs) {
            int cores = e.added() ? e.totalCores() : 0;
            // As Spark's AppStatusStore: the driver's "task time" is the application's run time, and its GC time
            // the TotalGCTime of its peak metrics whenever it has peaks (0 where they lack it, as in a Spark 3.0
            // log or a sample taken before anything was measured); its tasks' GC time only without peaks.
            long duration = e.isDriver() && appDurationMs >= 0 ? appDurationMs : e.totalDuration();
            long gc = e.isDriver() && !e.peakMetrics().isEmpty() ? e.peakMetrics().getOrDefault("TotalGCTime", 0L)
                    : e.totalGcTime();
            MemoryMetrics memory = e.maxOnHeapMemory() >= 0
                    ? new MemoryMetrics(0, 0, e.maxOnHeapMemory(), Math.max(0, e.maxOffHeapMemory())) : null;
            return new Executor(e.executorId(), e.hostPort(), e.removeTime() < 0, 0, 0, 0, cores,
                    cores / Math.max(1, taskCpus), Math.max(0, e.activeTasks()), e.failedTasks(), e.completedTasks(),
                    Math.max(0, e.totalTasks()), duration, gc, e.inputBytes(),
                    e.shuffleReadBytes(), e.shuffleWriteBytes(), false, Math.max(0, e.maxMemory()),
                    date(e.addTime()), e.removeTime() >= 0 ? date(e.removeTime()) : null,
                    e.removeTime() >= 0 ? e.removeReason() : null, Map.of(), memory, List.of(), peaks(e.peakMetrics()),
                    Map.of(), Map.of(), 0, false, List.of());
        }

        private static Map<String, Long> peaks(Map<String, Long> recorded) {
            if (recorded.isEmpty()) {
                return null;
            }
            Map<String, Long> out = new LinkedHashMap<>();
            for (String name : PEAK_METRICS) {
                out.put(name, recorded.getOrDefault(name, 0L));
            }
            recorded.forEach(out::putIfAbsent);
            return out;
        }
    }

    record InputMetrics(long bytesRead, long recordsRead) {
    }

    record OutputMetrics(long bytesWritten, long recordsWritten) {
    }

    record ShufflePushReadMetrics(long corruptMergedBlockChunks, long mergedFetchFallbackCount,
                                  long remoteMergedBlocksFetched, long localMergedBlocksFetched,
                                  long remoteMergedChunksFetched, long localMergedChunksFetched,
                                  long remoteMergedBytesRead, long localMergedBytesRead, long remoteMergedReqsDuration) {
    }

    record ShuffleReadMetrics(long remoteBlocksFetched, long localBlocksFetched, long fetchWaitTime,
                              long remoteBytesRead, long remoteBytesReadToDisk, long localBytesRead, long recordsRead,
                              long remoteReqsDuration, ShufflePushReadMetrics shufflePushReadMetrics) {
    }

    record ShuffleWriteMetrics(long bytesWritten, long writeTime, long recordsWritten) {
    }

    record Metrics(long executorDeserializeTime, long executorDeserializeCpuTime, long executorRunTime,
                   long executorCpuTime, long resultSize, long jvmGcTime, long resultSerializationTime,
                   long memoryBytesSpilled, long diskBytesSpilled, long peakExecutionMemory, InputMetrics inputMetrics,
                   OutputMetrics outputMetrics, ShuffleReadMetrics shuffleReadMetrics,
                   ShuffleWriteMetrics shuffleWriteMetrics) {

        static Metrics of(TaskMetrics m) {
            return new Metrics(m.get(TaskMetric.EXECUTOR_DESERIALIZE_TIME), m.get(TaskMetric.EXECUTOR_DESERIALIZE_CPU_TIME),
                    m.get(TaskMetric.EXECUTOR_RUN_TIME), m.get(TaskMetric.EXECUTOR_CPU_TIME),
                    m.get(TaskMetric.RESULT_SIZE), m.get(TaskMetric.JVM_GC_TIME),
                    m.get(TaskMetric.RESULT_SERIALIZATION_TIME), m.get(TaskMetric.MEMORY_BYTES_SPILLED),
                    m.get(TaskMetric.DISK_BYTES_SPILLED), m.get(TaskMetric.PEAK_EXECUTION_MEMORY),
                    new InputMetrics(m.get(TaskMetric.INPUT_BYTES), m.get(TaskMetric.INPUT_RECORDS)),
                    new OutputMetrics(m.get(TaskMetric.OUTPUT_BYTES), m.get(TaskMetric.OUTPUT_RECORDS)),
                    new ShuffleReadMetrics(m.get(TaskMetric.SHUFFLE_REMOTE_BLOCKS_FETCHED),
                            m.get(TaskMetric.SHUFFLE_LOCAL_BLOCKS_FETCHED), m.get(TaskMetric.SHUFFLE_FETCH_WAIT_TIME),
                            m.get(TaskMetric.SHUFFLE_REMOTE_BYTES_READ), m.get(TaskMetric.SHUFFLE_REMOTE_BYTES_READ_TO_DISK),
                            m.get(TaskMetric.SHUFFLE_LOCAL_BYTES_READ), m.get(TaskMetric.SHUFFLE_RECORDS_READ),
                            m.get(TaskMetric.SHUFFLE_REMOTE_REQS_DURATION),
                            new ShufflePushReadMetrics(m.get(TaskMetric.SHUFFLE_CORRUPT_MERGED_BLOCK_CHUNKS),
                                    m.get(TaskMetric.SHUFFLE_MERGED_FETCH_FALLBACK_COUNT),
                                    m.get(TaskMetric.SHUFFLE_MERGED_REMOTE_BLOCKS_FETCHED),
                                    m.get(TaskMetric.SHUFFLE_MERGED_LOCAL_BLOCKS_FETCHED),
                                    m.get(TaskMetric.SHUFFLE_MERGED_REMOTE_CHUNKS_FETCHED),
                                    m.get(TaskMetric.SHUFFLE_MERGED_LOCAL_CHUNKS_FETCHED),
                                    m.get(TaskMetric.SHUFFLE_MERGED_REMOTE_BYTES_READ),
                                    m.get(TaskMetric.SHUFFLE_MERGED_LOCAL_BYTES_READ),
                                    m.get(TaskMetric.SHUFFLE_MERGED_REMOTE_REQS_DURATION))),
                    new ShuffleWriteMetrics(m.get(TaskMetric.SHUFFLE_BYTES_WRITTEN), m.get(TaskMetric.SHUFFLE_WRITE_TIME),
                            m.get(TaskMetric.SHUFFLE_RECORDS_WRITTEN)));
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Task(long taskId, int index, int attempt, int partitionId, String launchTime, String resultFetchStart,
                Long duration, String executorId, String host, String status, String taskLocality,
                boolean speculative, List<Object> accumulatorUpdates, String errorMessage, Metrics taskMetrics,
                Map<String, String> executorLogs, long schedulerDelay, long gettingResultTime) {

        static Task of(TaskRecord t) {
            // Spark's TaskDataWrapper: the duration only when positive, the result fetch start only when set.
            long duration = t.durationMs();
            long gettingResult = t.gettingResultTime() > 0 && duration > 0
                    ? t.launchTime() + duration - t.gettingResultTime() : 0;
            TaskMetrics m = t.metrics();
            long schedulerDelay = m != null && duration > 0 ? Math.max(0, duration
                    - m.get(TaskMetric.EXECUTOR_RUN_TIME) - m.get(TaskMetric.EXECUTOR_DESERIALIZE_TIME)
                    - m.get(TaskMetric.RESULT_SERIALIZATION_TIME) - gettingResult) : 0;
            String error = "SUCCESS".equals(t.status()) ? null
                    : t.errorDetail() != null ? t.errorDetail() : t.errorMessage();
            return new Task(t.taskId(), t.index(), t.attempt(), t.partitionId(), SparkDates.format(
                    Math.max(0, t.launchTime())), t.gettingResultTime() > 0 ? date(t.gettingResultTime()) : null,
                    duration > 0 ? duration : null, t.executorId(), t.host(), t.status(), t.locality(),
                    t.speculative(), List.of(), error, m == null ? null : Metrics.of(m), Map.of(), schedulerDelay,
                    gettingResult);
        }
    }
}
