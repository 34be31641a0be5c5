package io.sparkscope.listener;

import io.sparkscope.core.event.ExecutorMetric;
import io.sparkscope.core.event.ExecutorPeaks;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.sql.SqlMetricIds;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import org.apache.spark.ExceptionFailure;
import org.apache.spark.ExecutorLostFailure;
import org.apache.spark.FetchFailed;
import org.apache.spark.TaskCommitDenied;
import org.apache.spark.TaskKilled;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.TaskFailedReason;
import org.apache.spark.executor.ExecutorMetrics;
import org.apache.spark.executor.ShuffleReadMetrics;
import org.apache.spark.executor.ShuffleWriteMetrics;
import org.apache.spark.scheduler.AccumulableInfo;
import org.apache.spark.scheduler.JobFailed;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.apache.spark.scheduler.SparkListenerApplicationStart;
import org.apache.spark.scheduler.SparkListenerBlockManagerAdded;
import org.apache.spark.scheduler.SparkListenerEnvironmentUpdate;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Spark's listener events to ours. Runs on Spark's listener-bus thread, so it only copies fields: constant work per
 * event (environment and job start copy their maps, which are small and rare).
 */
final class SparkEventConverter {
    /**
     * The {@link ExecutorMetric}s this Spark knows (TotalGCTime came in 3.1, the concurrent-GC pair in 4.0), found
     * on the first sample: asking Spark for a name it does not know throws, and throwing on every task end would
     * cost far more than the copy itself.
     */
    private static volatile ExecutorMetric[] knownMetrics;

    private SparkEventConverter() {
    }

    static SparkEvent.ApplicationStart applicationStart(SparkListenerApplicationStart e) {
        return new SparkEvent.ApplicationStart(e.appName(), ScalaInterop.stringOr(e.appId(), null),
                ScalaInterop.stringOr(e.appAttemptId(), null), e.time(), e.sparkUser());
    }

    static SparkEvent.ApplicationEnd applicationEnd(SparkListenerApplicationEnd e) {
        return new SparkEvent.ApplicationEnd(e.time());
    }

    static SparkEvent.EnvironmentUpdate environment(SparkListenerEnvironmentUpdate e) {
        Map<String, Map<String, String>> sections = new HashMap<>();
        scala.collection.Iterator<? extends scala.Tuple2<String, ? extends scala.collection.Iterable<scala.Tuple2<String, String>>>> it =
                e.environmentDetails().iterator();
        while (it.hasNext()) {
            var section = it.next();
            sections.put(section._1(), ScalaInterop.pairs(section._2()));
        }
        return new SparkEvent.EnvironmentUpdate(
                sections.getOrDefault("Spark Properties", Map.of()),
                sections.getOrDefault("JVM Information", Map.of()),
                sections.getOrDefault("System Properties", Map.of()),
                sections.getOrDefault("Hadoop Properties", Map.of()));
    }

    static SparkEvent.ExecutorAdded executorAdded(SparkListenerExecutorAdded e) {
        return new SparkEvent.ExecutorAdded(e.time(), e.executorId(), e.executorInfo().executorHost(),
                e.executorInfo().totalCores());
    }

    static SparkEvent.ExecutorRemoved executorRemoved(SparkListenerExecutorRemoved e) {
        return new SparkEvent.ExecutorRemoved(e.time(), e.executorId(), e.reason());
    }

    static SparkEvent.BlockManagerAdded blockManagerAdded(SparkListenerBlockManagerAdded e) {
        return new SparkEvent.BlockManagerAdded(e.time(), e.blockManagerId().executorId(),
                e.blockManagerId().host(), e.maxMem(), e.blockManagerId().port(),
                e.maxOnHeapMem().isDefined() ? (Long) e.maxOnHeapMem().get() : -1L,
                e.maxOffHeapMem().isDefined() ? (Long) e.maxOffHeapMem().get() : -1L);
    }

    static SparkEvent.JobStart jobStart(SparkListenerJobStart e) {
        List<StageInfo> infos = new ArrayList<>();
        for (org.apache.spark.scheduler.StageInfo s : ScalaInterop.list(e.stageInfos())) {
            infos.add(stage(s, false));
        }
        Map<String, String> props = new LinkedHashMap<>();
        Properties p = e.properties();
        if (p != null) {
            // The keys the recorder reads from a job's properties; the event log carries all of them, so the live
            // path must copy each one or live and replayed recordings of one run differ.
            for (String key : new String[] {"spark.sql.execution.id", "spark.jobGroup.id", "spark.job.description",
                    "spark.job.tags"}) {
                String v = p.getProperty(key);
                if (v != null) {
                    props.put(key, v);
                }
            }
        }
        return new SparkEvent.JobStart(e.jobId(), e.time(), ScalaInterop.intList(e.stageIds()), infos, props);
    }

    static SparkEvent.JobEnd jobEnd(SparkListenerJobEnd e) {
        if (e.jobResult() instanceof JobFailed failed) {
            Exception ex = failed.exception();
            return new SparkEvent.JobEnd(e.jobId(), e.time(), false, ex == null ? "Job failed" : ex.getMessage());
        }
        return new SparkEvent.JobEnd(e.jobId(), e.time(), true, null);
    }

    /** @param withAccumulables stage-completed events carry SQL metric values; submitted ones need none */
    static StageInfo stage(org.apache.spark.scheduler.StageInfo s, boolean withAccumulables) {
        List<StageInfo.Accumulable> accs = List.of();
        if (withAccumulables) {
            accs = new ArrayList<>();
            scala.collection.Iterator<AccumulableInfo> it = s.accumulables().valuesIterator();
            while (it.hasNext()) {
                AccumulableInfo a = it.next();
                if (a.value().isDefined()) {
                    accs.add(new StageInfo.Accumulable(a.id(), ScalaInterop.stringOr(a.name(), null),
                            String.valueOf(a.value().get())));
                }
            }
        }
        return new StageInfo(s.stageId(), s.attemptNumber(), s.name(), s.numTasks(),
                ScalaInterop.intList(s.parentIds()), s.details(),
                ScalaInterop.longOr(s.submissionTime(), -1), ScalaInterop.longOr(s.completionTime(), -1),
                ScalaInterop.stringOr(s.failureReason(), null), accs);
    }

    static SparkEvent.TaskStart taskStart(SparkListenerTaskStart e) {
        return new SparkEvent.TaskStart(e.stageId(), e.stageAttemptId(), taskInfo(e.taskInfo()));
    }

    static SparkEvent.TaskEnd taskEnd(SparkListenerTaskEnd e) {
        return taskEnd(e, null);
    }

    /** @param sqlMetricIds the SQL metrics of running executions, whose updates the task's accumulables carry */
    static SparkEvent.TaskEnd taskEnd(SparkListenerTaskEnd e, SqlMetricIds sqlMetricIds) {
        SparkEvent.AccumUpdates updates = sqlMetricIds == null || sqlMetricIds.isEmpty() || e.taskInfo() == null
                ? SparkEvent.AccumUpdates.NONE : sqlUpdates(e.taskInfo(), sqlMetricIds);
        return new SparkEvent.TaskEnd(e.stageId(), e.stageAttemptId(), e.taskType(), reason(e.reason()),
                taskInfo(e.taskInfo()), metrics(e.taskMetrics()), executorPeaks(e.taskExecutorMetrics()), updates);
    }

    /**
     * The task's own updates of SQL metrics, from {@code TaskInfo.accumulables} — what Spark writes to the event log,
     * so a live recording aggregates the same values as a replay of its log.
     */
    static SparkEvent.AccumUpdates sqlUpdates(org.apache.spark.scheduler.TaskInfo t, SqlMetricIds sqlMetricIds) {
        scala.collection.Iterator<AccumulableInfo> it = t.accumulables().iterator();
        long[] ids = null;
        long[] values = null;
        int n = 0;
        while (it.hasNext()) {
            AccumulableInfo a = it.next();
            if (!sqlMetricIds.contains(a.id()) || a.update().isEmpty()) {
                continue;
            }
            Object u = a.update().get();
            long v;
            if (u instanceof Number num) {
                v = num.longValue();
            } else {
                try {
                    v = Long.parseLong(String.valueOf(u));
                } catch (NumberFormatException notAnInteger) {
                    continue; // Spark's SQL tab fails on it too; nothing to aggregate
                }
            }
            if (ids == null) {
                ids = new long[8];
                values = new long[8];
            } else if (n == ids.length) {
                ids = java.util.Arrays.copyOf(ids, n * 2);
                values = java.util.Arrays.copyOf(values, n * 2);
            }
            ids[n] = a.id();
            values[n] = v;
            n++;
        }
        return n == 0 ? SparkEvent.AccumUpdates.NONE
                : new SparkEvent.AccumUpdates(java.util.Arrays.copyOf(ids, n), java.util.Arrays.copyOf(values, n));
    }

    static TaskInfo taskInfo(org.apache.spark.scheduler.TaskInfo t) {
        return new TaskInfo(t.taskId(), t.index(), t.attemptNumber(), t.partitionId(), t.launchTime(),
                t.executorId(), t.host(), t.taskLocality().toString(), t.speculative(), t.gettingResultTime(),
                t.finishTime(), t.failed(), t.killed());
    }

    /**
     * The reason's name as Spark writes it in event logs ("ExceptionFailure", "TaskKilled", …) and the same one-line
     * description the event-log reader builds from the logged fields, so live and replayed runs read alike.
     */
    static TaskEndReason reason(org.apache.spark.TaskEndReason r) {
        if (r == null) {
            return new TaskEndReason("UnknownReason", "unknown reason", null);
        }
        if (r == org.apache.spark.Success$.MODULE$) {
            return TaskEndReason.SUCCESS; // nearly every task: skip the class-name work on the bus thread
        }
        String kind = r.getClass().getSimpleName().replace("$", "");
        if (r instanceof ExceptionFailure ex) {
            String d = ex.description() == null ? "" : ex.description();
            String oneLine = d.isEmpty() ? ex.className() : ex.className() + ": " + TaskEndReason.firstLine(d);
            return new TaskEndReason(kind, oneLine, ex.fullStackTrace());
        }
        if (r instanceof FetchFailed f) {
            BlockManagerId bm = f.bmAddress();
            String address = bm == null ? "null"
                    : "BlockManagerId(" + bm.executorId() + ", " + bm.host() + ", " + bm.port() + ")";
            String message = f.message() == null ? "Unknown reason" : f.message();
            String d = "FetchFailed(" + address + ", shuffleId=" + f.shuffleId() + ", mapIndex=" + f.mapIndex()
                    + ", mapId=" + f.mapId() + ", reduceId=" + f.reduceId() + ", message="
                    + TaskEndReason.firstLine(message) + ")";
            // The error text Spark's UI and REST API show for the task, which the event-log reader rebuilds alike.
            return new TaskEndReason(kind, d, f.toErrorString());
        }
        if (r instanceof TaskKilled k) {
            return new TaskEndReason(kind, TaskEndReason.firstLine(k.reason()), null);
        }
        if (r instanceof ExecutorLostFailure lost) {
            String reason = ScalaInterop.stringOr(lost.reason(), null);
            return new TaskEndReason(kind, reason == null ? "executor " + lost.execId() + " lost"
                    : TaskEndReason.firstLine(reason), null);
        }
        if (r instanceof TaskCommitDenied denied) {
            return new TaskEndReason(kind, "driver denied task commit for job " + denied.jobID() + ", partition "
                    + denied.partitionID() + ", attempt " + denied.attemptNumber(), null);
        }
        return switch (kind) {
            case "Success" -> TaskEndReason.SUCCESS;
            case "Resubmitted" -> new TaskEndReason(kind, "resubmitted due to lost executor", null);
            case "TaskResultLost" -> new TaskEndReason(kind, "result lost from block manager", null);
            case "UnknownReason" -> new TaskEndReason(kind, "unknown reason", null);
            default -> new TaskEndReason(kind, r instanceof TaskFailedReason f ? f.toErrorString() : kind, null);
        };
    }

    static TaskMetrics metrics(org.apache.spark.executor.TaskMetrics m) {
        if (m == null) {
            return null;
        }
        ShuffleReadMetrics r = m.shuffleReadMetrics();
        ShuffleWriteMetrics w = m.shuffleWriteMetrics();
        return TaskMetrics.builder()
                .set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, m.executorDeserializeTime())
                .set(TaskMetric.EXECUTOR_DESERIALIZE_CPU_TIME, m.executorDeserializeCpuTime())
                .set(TaskMetric.EXECUTOR_RUN_TIME, m.executorRunTime())
                .set(TaskMetric.EXECUTOR_CPU_TIME, m.executorCpuTime())
                .set(TaskMetric.RESULT_SIZE, m.resultSize())
                .set(TaskMetric.JVM_GC_TIME, m.jvmGCTime())
                .set(TaskMetric.RESULT_SERIALIZATION_TIME, m.resultSerializationTime())
                .set(TaskMetric.MEMORY_BYTES_SPILLED, m.memoryBytesSpilled())
                .set(TaskMetric.DISK_BYTES_SPILLED, m.diskBytesSpilled())
                .set(TaskMetric.PEAK_EXECUTION_MEMORY, m.peakExecutionMemory())
                .set(TaskMetric.INPUT_BYTES, m.inputMetrics().bytesRead())
                .set(TaskMetric.INPUT_RECORDS, m.inputMetrics().recordsRead())
                .set(TaskMetric.OUTPUT_BYTES, m.outputMetrics().bytesWritten())
                .set(TaskMetric.OUTPUT_RECORDS, m.outputMetrics().recordsWritten())
                .set(TaskMetric.SHUFFLE_REMOTE_BLOCKS_FETCHED, r.remoteBlocksFetched())
                .set(TaskMetric.SHUFFLE_LOCAL_BLOCKS_FETCHED, r.localBlocksFetched())
                .set(TaskMetric.SHUFFLE_FETCH_WAIT_TIME, r.fetchWaitTime())
                .set(TaskMetric.SHUFFLE_REMOTE_BYTES_READ, r.remoteBytesRead())
                .set(TaskMetric.SHUFFLE_REMOTE_BYTES_READ_TO_DISK, r.remoteBytesReadToDisk())
                .set(TaskMetric.SHUFFLE_LOCAL_BYTES_READ, r.localBytesRead())
                .set(TaskMetric.SHUFFLE_RECORDS_READ, r.recordsRead())
                .set(TaskMetric.SHUFFLE_REMOTE_REQS_DURATION, r.remoteReqsDuration())
                .set(TaskMetric.SHUFFLE_CORRUPT_MERGED_BLOCK_CHUNKS, r.corruptMergedBlockChunks())
                .set(TaskMetric.SHUFFLE_MERGED_FETCH_FALLBACK_COUNT, r.mergedFetchFallbackCount())
                .set(TaskMetric.SHUFFLE_MERGED_REMOTE_BLOCKS_FETCHED, r.remoteMergedBlocksFetched())
                .set(TaskMetric.SHUFFLE_MERGED_LOCAL_BLOCKS_FETCHED, r.localMergedBlocksFetched())
                .set(TaskMetric.SHUFFLE_MERGED_REMOTE_CHUNKS_FETCHED, r.remoteMergedChunksFetched())
                .set(TaskMetric.SHUFFLE_MERGED_LOCAL_CHUNKS_FETCHED, r.localMergedChunksFetched())
                .set(TaskMetric.SHUFFLE_MERGED_REMOTE_BYTES_READ, r.remoteMergedBytesRead())
                .set(TaskMetric.SHUFFLE_MERGED_LOCAL_BYTES_READ, r.localMergedBytesRead())
                .set(TaskMetric.SHUFFLE_MERGED_REMOTE_REQS_DURATION, r.remoteMergedReqsDuration())
                .set(TaskMetric.SHUFFLE_BYTES_WRITTEN, w.bytesWritten())
                .set(TaskMetric.SHUFFLE_WRITE_TIME, w.writeTime())
                .set(TaskMetric.SHUFFLE_RECORDS_WRITTEN, w.recordsWritten())
                .build();
    }

    /** Spark's peak executor metrics as ours; null stays null. A constant amount of work per sample. */
    static ExecutorPeaks executorPeaks(ExecutorMetrics m) {
        if (m == null) {
            return null;
        }
        ExecutorPeaks.Builder b = ExecutorPeaks.builder();
        for (ExecutorMetric metric : known(m)) {
            b.set(metric, m.getMetricValue(metric.sparkName));
        }
        return b.build();
    }

    /** Several samples of one heartbeat (one per active stage) as one: the largest value per metric. */
    static ExecutorPeaks merged(scala.collection.Iterator<ExecutorMetrics> samples) {
        long[] max = null;
        ExecutorMetric[] known = null;
        while (samples.hasNext()) {
            ExecutorMetrics m = samples.next();
            if (m == null) {
                continue;
            }
            if (max == null) {
                known = known(m);
                max = new long[ExecutorMetric.count()];
                java.util.Arrays.fill(max, ExecutorPeaks.ABSENT);
            }
            for (ExecutorMetric metric : known) {
                max[metric.ordinal()] = Math.max(max[metric.ordinal()], m.getMetricValue(metric.sparkName));
            }
        }
        ExecutorPeaks.Builder b = ExecutorPeaks.builder();
        if (max != null) {
            for (ExecutorMetric metric : known) {
                b.set(metric, max[metric.ordinal()]);
            }
        }
        return b.build();
    }

    private static ExecutorMetric[] known(ExecutorMetrics sample) {
        ExecutorMetric[] k = knownMetrics;
        if (k == null) {
            List<ExecutorMetric> found = new ArrayList<>();
            for (ExecutorMetric metric : ExecutorMetric.values()) {
                try {
                    sample.getMetricValue(metric.sparkName);
                    found.add(metric);
                } catch (RuntimeException unknownOnThisVersion) {
                    // e.g. TotalGCTime before Spark 3.1: never asked for again
                }
            }
            knownMetrics = k = found.toArray(new ExecutorMetric[0]);
        }
        return k;
    }
}
