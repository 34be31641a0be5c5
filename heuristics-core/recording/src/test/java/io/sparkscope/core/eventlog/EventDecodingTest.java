package io.sparkscope.core.eventlog;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.event.TaskInfo;
import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventDecodingTest {
    @TempDir
    Path dir;

    private TestLogs.Result readLines(String... lines) throws Exception {
        return TestLogs.read(TestLogs.write(dir.resolve("log"), List.of(lines)));
    }

    @Test
    void applicationEnvironmentAndExecutors() throws Exception {
        TestLogs.Result r = readLines(TestLogs.LOG_START, TestLogs.APP_START,
                "{\"Event\":\"SparkListenerEnvironmentUpdate\",\"JVM Information\":{\"Java Version\":\"17\"},"
                        + "\"Spark Properties\":{\"spark.executor.memory\":\"4g\",\"spark.app.name\":\"demo\"},"
                        + "\"Hadoop Properties\":{\"fs.defaultFS\":\"file:///\"},"
                        + "\"System Properties\":{\"user.name\":\"alice\"},\"Classpath Entries\":{\"/a.jar\":\"System\"}}",
                "{\"Event\":\"SparkListenerBlockManagerAdded\",\"Block Manager ID\":{\"Executor ID\":\"driver\","
                        + "\"Host\":\"h0\",\"Port\":4040},\"Maximum Memory\":1000,\"Timestamp\":1001,"
                        + "\"Maximum Onheap Memory\":1000,\"Maximum Offheap Memory\":0}",
                "{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":1002,\"Executor ID\":\"1\","
                        + "\"Executor Info\":{\"Host\":\"h1\",\"Total Cores\":4,\"Log Urls\":{},\"Attributes\":{},"
                        + "\"Resources\":{},\"Resource Profile Id\":0}}",
                "{\"Event\":\"SparkListenerExecutorRemoved\",\"Timestamp\":8000,\"Executor ID\":\"1\","
                        + "\"Removed Reason\":\"Executor killed by driver.\"}",
                "{\"Event\":\"SparkListenerStageExecutorMetrics\",\"Executor ID\":\"driver\",\"Stage ID\":2,"
                        + "\"Stage Attempt ID\":1,\"Executor Metrics\":{\"JVMHeapMemory\":123,\"MinorGCTime\":7}}",
                TestLogs.APP_END);
        assertEquals(List.of(), r.problems());
        assertEquals(8, r.stats().events());
        assertEquals(new SparkEvent.LogStart("3.5.1"), r.events().get(0));
        assertEquals(new SparkEvent.ApplicationStart("demo", "app-1", "1", 1000, "alice"), r.events().get(1));
        SparkEvent.EnvironmentUpdate env = r.first(SparkEvent.EnvironmentUpdate.class);
        assertEquals(Map.of("spark.executor.memory", "4g", "spark.app.name", "demo"), env.sparkProperties());
        assertEquals(Map.of("Java Version", "17"), env.jvmInformation());
        assertEquals(Map.of("user.name", "alice"), env.systemProperties());
        assertEquals(Map.of("fs.defaultFS", "file:///"), env.hadoopProperties());
        assertEquals(new SparkEvent.BlockManagerAdded(1001, "driver", "h0", 1000, 4040, 1000, 0),
                r.first(SparkEvent.BlockManagerAdded.class));
        assertEquals(new SparkEvent.ExecutorAdded(1002, "1", "h1", 4), r.first(SparkEvent.ExecutorAdded.class));
        assertEquals(new SparkEvent.ExecutorRemoved(8000, "1", "Executor killed by driver."),
                r.first(SparkEvent.ExecutorRemoved.class));
        assertEquals(new SparkEvent.StageExecutorMetrics("driver", 2, 1, Map.of("JVMHeapMemory", 123L,
                "MinorGCTime", 7L)), r.first(SparkEvent.StageExecutorMetrics.class));
        assertEquals(new SparkEvent.ApplicationEnd(9000), r.events().get(7));
        assertEquals(r.stats().bytesRead(), java.nio.file.Files.size(dir.resolve("log")));
    }

    @Test
    void taskStartAndEndCarryEveryField() throws Exception {
        TestLogs.Result r = readLines(TestLogs.taskStart(4, 77), TestLogs.taskEnd(4, 77));
        assertEquals(List.of(), r.problems());
        SparkEvent.TaskStart start = r.first(SparkEvent.TaskStart.class);
        assertEquals(4, start.stageId());
        assertEquals(new TaskInfo(77, 0, 0, 0, 1100, "1", "h1", "PROCESS_LOCAL", false, 0, 0, false, false),
                start.taskInfo());

        SparkEvent.TaskEnd end = r.first(SparkEvent.TaskEnd.class);
        assertEquals(4, end.stageId());
        assertEquals(0, end.stageAttemptId());
        assertEquals("ResultTask", end.taskType());
        assertTrue(end.reason().isSuccess());
        assertEquals(new TaskInfo(77, 3, 1, 3, 1100, "1", "h1", "NODE_LOCAL", true, 1150, 1200, false, false),
                end.taskInfo());
        // the fixture numbers the metrics 1..34 in TaskMetric's declaration order
        TaskMetric[] order = {TaskMetric.EXECUTOR_DESERIALIZE_TIME, TaskMetric.EXECUTOR_DESERIALIZE_CPU_TIME,
                TaskMetric.EXECUTOR_RUN_TIME, TaskMetric.EXECUTOR_CPU_TIME, TaskMetric.PEAK_EXECUTION_MEMORY,
                TaskMetric.RESULT_SIZE, TaskMetric.JVM_GC_TIME, TaskMetric.RESULT_SERIALIZATION_TIME,
                TaskMetric.MEMORY_BYTES_SPILLED, TaskMetric.DISK_BYTES_SPILLED,
                TaskMetric.SHUFFLE_REMOTE_BLOCKS_FETCHED, TaskMetric.SHUFFLE_LOCAL_BLOCKS_FETCHED,
                TaskMetric.SHUFFLE_FETCH_WAIT_TIME, TaskMetric.SHUFFLE_REMOTE_BYTES_READ,
                TaskMetric.SHUFFLE_REMOTE_BYTES_READ_TO_DISK, TaskMetric.SHUFFLE_LOCAL_BYTES_READ,
                TaskMetric.SHUFFLE_RECORDS_READ, TaskMetric.SHUFFLE_REMOTE_REQS_DURATION,
                TaskMetric.SHUFFLE_CORRUPT_MERGED_BLOCK_CHUNKS, TaskMetric.SHUFFLE_MERGED_FETCH_FALLBACK_COUNT,
                TaskMetric.SHUFFLE_MERGED_REMOTE_BLOCKS_FETCHED, TaskMetric.SHUFFLE_MERGED_LOCAL_BLOCKS_FETCHED,
                TaskMetric.SHUFFLE_MERGED_REMOTE_CHUNKS_FETCHED, TaskMetric.SHUFFLE_MERGED_LOCAL_CHUNKS_FETCHED,
                TaskMetric.SHUFFLE_MERGED_REMOTE_BYTES_READ, TaskMetric.SHUFFLE_MERGED_LOCAL_BYTES_READ,
                TaskMetric.SHUFFLE_MERGED_REMOTE_REQS_DURATION, TaskMetric.SHUFFLE_BYTES_WRITTEN,
                TaskMetric.SHUFFLE_WRITE_TIME, TaskMetric.SHUFFLE_RECORDS_WRITTEN, TaskMetric.INPUT_BYTES,
                TaskMetric.INPUT_RECORDS, TaskMetric.OUTPUT_BYTES, TaskMetric.OUTPUT_RECORDS};
        assertEquals(TaskMetric.count(), order.length);
        TaskMetrics m = end.metrics();
        for (int i = 0; i < order.length; i++) {
            assertEquals(i + 1, m.get(order[i]), order[i].name());
        }
    }

    @Test
    void newerPushShuffleSpellingAndFieldOrderDoNotMatter() throws Exception {
        // Spark's own test log app-20200706201101-0003 writes "Shuffle Push Read Metrics"/"Merged Fallback Count";
        // and "Event" need not come first.
        TestLogs.Result r = readLines("{\"Stage ID\":1,\"Task Type\":\"ShuffleMapTask\",\"Task End Reason\":"
                + "{\"Reason\":\"Success\"},\"Task Info\":{\"Task ID\":5,\"Launch Time\":10,\"Finish Time\":20},"
                + "\"Task Metrics\":{\"Shuffle Read Metrics\":{\"Local Bytes Read\":100,"
                + "\"Shuffle Push Read Metrics\":{\"Merged Fallback Count\":2,\"Merged Local Bytes Read\":100}}},"
                + "\"Event\":\"SparkListenerTaskEnd\"}");
        assertEquals(List.of(), r.problems());
        TaskMetrics m = r.first(SparkEvent.TaskEnd.class).metrics();
        assertEquals(100, m.get(TaskMetric.SHUFFLE_LOCAL_BYTES_READ));
        assertEquals(2, m.get(TaskMetric.SHUFFLE_MERGED_FETCH_FALLBACK_COUNT));
        assertEquals(100, m.get(TaskMetric.SHUFFLE_MERGED_LOCAL_BYTES_READ));
    }

    @Test
    void spark12StyleTaskEndGivesZerosAndDefaults() throws Exception {
        // Spark 1.2: no Attempt/Partition ID/Killed/Speculative in Task Info, no CPU times, no records, "Data Read
        // Method", no Stage Attempt ID
        TestLogs.Result r = readLines("{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,\"Task Type\":"
                + "\"ResultTask\",\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Info\":{\"Task ID\":0,"
                + "\"Index\":0,\"Launch Time\":1422981766912,\"Executor ID\":\"<driver>\",\"Host\":\"localhost\","
                + "\"Locality\":\"PROCESS_LOCAL\",\"Getting Result Time\":0,\"Finish Time\":1422981767290,"
                + "\"Failed\":false,\"Accumulables\":[]},\"Task Metrics\":{\"Host Name\":\"localhost\","
                + "\"Executor Deserialize Time\":210,\"Executor Run Time\":100,\"Result Size\":1013,"
                + "\"JVM GC Time\":0,\"Result Serialization Time\":1,\"Memory Bytes Spilled\":0,"
                + "\"Disk Bytes Spilled\":0,\"Input Metrics\":{\"Data Read Method\":\"Hadoop\",\"Bytes Read\":3476}}}",
                "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":0,\"Stage Name\":\"count\","
                        + "\"Number of Tasks\":8,\"RDD Info\":[{\"RDD ID\":0,\"Name\":\"x\",\"Storage Level\":"
                        + "{\"Use Disk\":false,\"Use Memory\":false,\"Use Tachyon\":false,\"Deserialized\":false,"
                        + "\"Replication\":1},\"Number of Partitions\":8,\"Number of Cached Partitions\":0,"
                        + "\"Memory Size\":0,\"Tachyon Size\":0,\"Disk Size\":0}],"
                        + "\"Details\":\"\",\"Accumulables\":[]}}",
                "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":0,\"Stage IDs\":[0,1],\"Properties\":{}}");
        assertEquals(List.of(), r.problems());
        SparkEvent.TaskEnd end = r.first(SparkEvent.TaskEnd.class);
        assertEquals(0, end.stageAttemptId());
        TaskInfo info = end.taskInfo();
        assertEquals(1, info.attempt(), "Spark's default attempt when absent");
        assertEquals(-1, info.partitionId());
        assertFalse(info.speculative());
        assertFalse(info.killed());
        assertEquals("<driver>", info.executorId());
        TaskMetrics m = end.metrics();
        assertEquals(210, m.get(TaskMetric.EXECUTOR_DESERIALIZE_TIME));
        assertEquals(3476, m.get(TaskMetric.INPUT_BYTES));
        for (TaskMetric t : List.of(TaskMetric.EXECUTOR_CPU_TIME, TaskMetric.EXECUTOR_DESERIALIZE_CPU_TIME,
                TaskMetric.PEAK_EXECUTION_MEMORY, TaskMetric.INPUT_RECORDS, TaskMetric.SHUFFLE_LOCAL_BYTES_READ,
                TaskMetric.SHUFFLE_RECORDS_WRITTEN)) {
            assertEquals(0, m.get(t), t.name());
        }
        StageInfo stage = r.first(SparkEvent.StageCompleted.class).stage();
        assertEquals(0, stage.attemptId());
        assertEquals(-1, stage.submissionTime());
        assertEquals(-1, stage.completionTime());
        assertEquals(List.of(), stage.parentIds());
        SparkEvent.JobStart job = r.first(SparkEvent.JobStart.class);
        assertEquals(-1, job.submissionTime());
        assertEquals(List.of(0, 1), job.stageIds());
        assertEquals(2, job.stageInfos().size(), "placeholders like Spark's when Stage Infos is absent");
        assertEquals("unknown", job.stageInfos().get(1).name());
    }

    @Test
    void failureReasons() throws Exception {
        String info = ",\"Task Info\":{\"Task ID\":1,\"Launch Time\":1,\"Finish Time\":2,\"Failed\":true}";
        TestLogs.Result r = readLines(
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Type\":\"ResultTask\",\"Task End Reason\":"
                        + "{\"Reason\":\"ExceptionFailure\",\"Class Name\":\"java.lang.RuntimeException\","
                        + "\"Description\":\"boom\\nsecond line\",\"Stack Trace\":[],\"Full Stack Trace\":"
                        + "\"java.lang.RuntimeException: boom\\n\\tat X.y(X.java:1)\",\"Accumulator Updates\":[]}"
                        + info + "}",
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Type\":\"ResultTask\",\"Task End Reason\":"
                        + "{\"Reason\":\"ExceptionFailure\",\"Class Name\":\"java.io.IOException\",\"Description\":"
                        + "\"disk\",\"Stack Trace\":[{\"Declaring Class\":\"A\",\"Method Name\":\"b\",\"File Name\":"
                        + "\"A.java\",\"Line Number\":7}]}" + info + "}",
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Type\":\"ShuffleMapTask\","
                        + "\"Task End Reason\":{\"Reason\":\"FetchFailed\",\"Block Manager Address\":{\"Executor ID\":"
                        + "\"2\",\"Host\":\"h2\",\"Port\":7337},\"Shuffle ID\":0,\"Map ID\":5,\"Map Index\":1,"
                        + "\"Reduce ID\":3,\"Message\":\"Failed to connect\"}" + info + "}",
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Type\":\"ResultTask\",\"Task End Reason\":"
                        + "{\"Reason\":\"TaskKilled\",\"Kill Reason\":\"another attempt succeeded\"}" + info + "}",
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Type\":\"ResultTask\",\"Task End Reason\":"
                        + "{\"Reason\":\"ExecutorLostFailure\",\"Executor ID\":\"3\",\"Exit Caused By App\":true,"
                        + "\"Loss Reason\":\"Container killed by YARN\"}" + info + "}",
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Type\":\"ResultTask\",\"Task End Reason\":"
                        + "{\"Reason\":\"Resubmitted\"}" + info + ",\"Task Metrics\":null}",
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Type\":\"ResultTask\",\"Task End Reason\":"
                        + "{\"Reason\":\"TaskCommitDenied\",\"Job ID\":1,\"Partition ID\":2,\"Attempt Number\":3}"
                        + info + "}");
        assertEquals(List.of(), r.problems());
        List<SparkEvent.TaskEnd> ends = r.of(SparkEvent.TaskEnd.class);
        TaskEndReason ex = ends.get(0).reason();
        assertEquals("ExceptionFailure", ex.kind());
        assertEquals("java.lang.RuntimeException: boom …", ex.description());
        assertEquals("java.lang.RuntimeException: boom\n\tat X.y(X.java:1)", ex.stackTrace());
        assertTrue(ex.isFailure());
        assertEquals("java.io.IOException: disk\n\tat A.b(A.java:7)", ends.get(1).reason().stackTrace());
        assertEquals("FetchFailed(BlockManagerId(2, h2, 7337), shuffleId=0, mapIndex=1, mapId=5, reduceId=3, "
                + "message=Failed to connect)", ends.get(2).reason().description());
        assertEquals("FetchFailed(BlockManagerId(2, h2, 7337, None), shuffleId=0, mapIndex=1, mapId=5, reduceId=3, "
                + "message=\nFailed to connect\n)", ends.get(2).reason().stackTrace(), "Spark's toErrorString");
        assertEquals(new TaskEndReason("TaskKilled", "another attempt succeeded", null), ends.get(3).reason());
        assertTrue(ends.get(3).reason().isKilled());
        assertEquals(new TaskEndReason("ExecutorLostFailure", "Container killed by YARN", null), ends.get(4).reason());
        assertEquals("Resubmitted", ends.get(5).reason().kind());
        assertNull(ends.get(5).metrics(), "JSON null metrics");
        assertNull(ends.get(0).metrics(), "absent metrics");
        assertEquals("TaskCommitDenied", ends.get(6).reason().kind());
        assertTrue(ends.get(6).reason().isKilled());
        assertTrue(ends.get(0).taskInfo().failed());
    }

    @Test
    void aFetchFailureOfAnOlderLogReadsAsThatSparkShowedIt() throws Exception {
        String info = ",\"Task Info\":{\"Task ID\":1,\"Launch Time\":1,\"Finish Time\":2,\"Failed\":true}";
        TestLogs.Result r = readLines(
                "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Type\":\"ResultTask\","
                        + "\"Task End Reason\":{\"Reason\":\"FetchFailed\",\"Block Manager Address\":null,"
                        + "\"Shuffle ID\":2,\"Map ID\":4,\"Reduce ID\":0,\"Message\":"
                        + "\"org.apache.spark.shuffle.FetchFailedException: lost\\n\\tat A.b(A.java:1)\"}" + info + "}");
        TaskEndReason reason = r.first(SparkEvent.TaskEnd.class).reason();
        // Spark before 3.0 had no map index, and no block manager when the map output's location was lost
        assertEquals("FetchFailed(null, shuffleId=2, mapId=4, reduceId=0, message=\n"
                + "org.apache.spark.shuffle.FetchFailedException: lost\n\tat A.b(A.java:1)\n)", reason.stackTrace());
    }

    @Test
    void stagesAndJobs() throws Exception {
        String stageInfo = "{\"Stage ID\":3,\"Stage Attempt ID\":1,\"Stage Name\":\"map at X.scala:1\","
                + "\"Number of Tasks\":200,\"RDD Info\":[{\"RDD ID\":1,\"Name\":\"r\",\"Parent IDs\":[0]}],"
                + "\"Parent IDs\":[1,2],\"Details\":\"org.apache.spark.X.map\",\"Submission Time\":2000,"
                + "\"Completion Time\":3000,\"Failure Reason\":\"Job aborted\",\"Accumulables\":[{\"ID\":9,"
                + "\"Name\":\"number of output rows\",\"Value\":\"42\",\"Internal\":true,\"Count Failed Values\":"
                + "true,\"Metadata\":\"sql\"},{\"ID\":10,\"Name\":\"internal.metrics.executorRunTime\",\"Value\":77}],"
                + "\"Resource Profile Id\":0}";
        TestLogs.Result r = readLines(
                "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":7,\"Submission Time\":1500,\"Stage Infos\":["
                        + stageInfo + "],\"Stage IDs\":[3],\"Properties\":{\"spark.sql.execution.id\":\"2\","
                        + "\"spark.job.description\":null}}",
                "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":" + stageInfo + ",\"Properties\":{}}",
                "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":" + stageInfo + "}",
                "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":7,\"Completion Time\":3100,\"Job Result\":"
                        + "{\"Result\":\"JobFailed\",\"Exception\":{\"Message\":\"Job aborted due to stage failure\","
                        + "\"Stack Trace\":[]}}}",
                "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":8,\"Completion Time\":3200,\"Job Result\":"
                        + "{\"Result\":\"JobSucceeded\"}}");
        assertEquals(List.of(), r.problems());
        StageInfo expected = new StageInfo(3, 1, "map at X.scala:1", 200, List.of(1, 2), "org.apache.spark.X.map",
                2000, 3000, "Job aborted", List.of(new StageInfo.Accumulable(9, "number of output rows", "42"),
                new StageInfo.Accumulable(10, "internal.metrics.executorRunTime", "77")));
        SparkEvent.JobStart job = r.first(SparkEvent.JobStart.class);
        assertEquals(new SparkEvent.JobStart(7, 1500, List.of(3), List.of(expected),
                Map.of("spark.sql.execution.id", "2")), job);
        assertEquals(expected, r.first(SparkEvent.StageSubmitted.class).stage());
        assertEquals(expected, r.first(SparkEvent.StageCompleted.class).stage());
        List<SparkEvent.JobEnd> ends = r.of(SparkEvent.JobEnd.class);
        assertEquals(new SparkEvent.JobEnd(7, 3100, false, "Job aborted due to stage failure"), ends.get(0));
        assertEquals(new SparkEvent.JobEnd(8, 3200, true, null), ends.get(1));
    }

    @Test
    void sqlEvents() throws Exception {
        String plan = "{\"nodeName\":\"WholeStageCodegen (1)\",\"simpleString\":\"WholeStageCodegen (1)\","
                + "\"children\":[{\"nodeName\":\"Scan parquet\",\"simpleString\":\"FileScan parquet\","
                + "\"children\":[],\"metadata\":{},\"metrics\":[{\"name\":\"number of output rows\","
                + "\"accumulatorId\":12,\"metricType\":\"sum\"}]}],\"metadata\":{},\"metrics\":[{\"name\":"
                + "\"duration\",\"accumulatorId\":11,\"metricType\":\"timing\"}]}";
        TestLogs.Result r = readLines(
                "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\",\"executionId\":3,"
                        + "\"rootExecutionId\":3,\"description\":\"count at App.scala:9\",\"details\":\"d\","
                        + "\"physicalPlanDescription\":\"== Physical Plan ==\",\"sparkPlanInfo\":" + plan
                        + ",\"time\":5000,\"modifiedConfigs\":{},\"jobTags\":[]}",
                "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate\","
                        + "\"executionId\":3,\"physicalPlanDescription\":\"AQE plan\",\"sparkPlanInfo\":" + plan + "}",
                "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates\",\"executionId\":3,"
                        + "\"accumUpdates\":[[11,500],[12,42]]}",
                "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd\",\"executionId\":3,"
                        + "\"time\":6000,\"errorMessage\":\"\"}",
                "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd\",\"executionId\":4,"
                        + "\"time\":6100,\"errorMessage\":\"Table not found\"}");
        assertEquals(List.of(), r.problems());
        SparkEvent.PlanNode expectedPlan = new SparkEvent.PlanNode("WholeStageCodegen (1)", "WholeStageCodegen (1)",
                List.of(new SparkEvent.PlanNode("Scan parquet", "FileScan parquet", List.of(),
                        List.of(new SparkEvent.PlanMetric("number of output rows", 12, "sum")))),
                List.of(new SparkEvent.PlanMetric("duration", 11, "timing")));
        assertEquals(new SparkEvent.SqlExecutionStart(3, "count at App.scala:9", "== Physical Plan ==", expectedPlan,
                5000), r.first(SparkEvent.SqlExecutionStart.class));
        assertEquals(new SparkEvent.SqlAdaptivePlanUpdate(3, "AQE plan", expectedPlan),
                r.first(SparkEvent.SqlAdaptivePlanUpdate.class));
        assertEquals(new SparkEvent.DriverAccumUpdates(3, List.of(new SparkEvent.AccumUpdate(11, 500),
                new SparkEvent.AccumUpdate(12, 42))),
                r.first(SparkEvent.DriverAccumUpdates.class));
        List<SparkEvent.SqlExecutionEnd> ends = r.of(SparkEvent.SqlExecutionEnd.class);
        // Spark 3.4+'s success: an empty message, kept (Spark's status tells it from none)
        assertEquals(new SparkEvent.SqlExecutionEnd(3, 6000, ""), ends.get(0));
        assertEquals(new SparkEvent.SqlExecutionEnd(4, 6100, "Table not found"), ends.get(1));
    }

    @Test
    void unknownTypesAreCountedAndPassedOn() throws Exception {
        TestLogs.Result r = readLines(TestLogs.LOG_START,
                "{\"Event\":\"SparkListenerResourceProfileAdded\",\"Resource Profile Id\":0}",
                "{\"Event\":\"SparkListenerBlockManagerRemoved\",\"Block Manager ID\":{}}",
                "{\"Event\":\"SparkListenerResourceProfileAdded\",\"Resource Profile Id\":1}");
        assertEquals(1, r.stats().events());
        assertEquals(3, r.stats().skippedUnknown());
        assertEquals(Map.of("SparkListenerResourceProfileAdded", 2L, "SparkListenerBlockManagerRemoved", 1L),
                r.stats().unknownTypes());
        assertEquals(new SparkEvent.Unknown("SparkListenerResourceProfileAdded"), r.events().get(1));
        assertNotNull(r.stats().problems());
    }
}
