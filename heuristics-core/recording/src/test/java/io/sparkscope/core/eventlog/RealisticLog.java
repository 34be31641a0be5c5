package io.sparkscope.core.eventlog;

import java.util.ArrayList;
import java.util.List;

/**
 * A small but complete application as Spark 3.5's JsonProtocol writes it: environment, two executors, one SQL
 * execution running a job of two stages (a shuffle map stage and a result stage), successful, failed, killed and
 * speculative tasks, stage executor metrics, executor removal and the application end. Times are real epoch
 * milliseconds, all from one driver clock, so every end follows its start.
 */
final class RealisticLog {
    static final String APP_ID = "application_1700000000000_0042";
    static final long T0 = 1_700_000_000_000L;

    private RealisticLog() {
    }

    static List<String> lines() {
        List<String> l = new ArrayList<>();
        l.add("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}");
        l.add("{\"Event\":\"SparkListenerResourceProfileAdded\",\"Resource Profile Id\":0,"
                + "\"Executor Resource Requests\":{\"cores\":{\"Resource Name\":\"cores\",\"Amount\":2,"
                + "\"Discovery Script\":\"\",\"Vendor\":\"\"}},\"Task Resource Requests\":{\"cpus\":"
                + "{\"Resource Name\":\"cpus\",\"Amount\":1.0}}}");
        l.add("{\"Event\":\"SparkListenerBlockManagerAdded\",\"Block Manager ID\":{\"Executor ID\":\"driver\","
                + "\"Host\":\"10.0.0.1\",\"Port\":40000},\"Maximum Memory\":455501414,\"Timestamp\":" + (T0 + 500)
                + ",\"Maximum Onheap Memory\":455501414,\"Maximum Offheap Memory\":0}");
        l.add("{\"Event\":\"SparkListenerEnvironmentUpdate\",\"JVM Information\":{\"Java Home\":\"/usr/lib/jvm\","
                + "\"Java Version\":\"17.0.9 (Eclipse Adoptium)\",\"Scala Version\":\"version 2.12.18\"},"
                + "\"Spark Properties\":{\"spark.master\":\"yarn\",\"spark.app.name\":\"nightly-etl\","
                + "\"spark.executor.cores\":\"2\",\"spark.executor.memory\":\"4g\","
                + "\"spark.dynamicAllocation.enabled\":\"false\",\"spark.sql.shuffle.partitions\":\"4\"},"
                + "\"Hadoop Properties\":{\"fs.defaultFS\":\"hdfs://nn:8020\"},"
                + "\"System Properties\":{\"java.class.path\":\"/opt/spark/jars/a.jar:/opt/spark/jars/b.jar\","
                + "\"user.name\":\"etl\"},\"Metrics Properties\":{},\"Classpath Entries\":{}}");
        l.add("{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"nightly-etl\",\"App ID\":\"" + APP_ID
                + "\",\"Timestamp\":" + T0 + ",\"User\":\"etl\",\"App Attempt ID\":\"1\"}");
        l.add(executorAdded("1", "10.0.0.2", T0 + 2_000));
        l.add(executorAdded("2", "10.0.0.3", T0 + 2_100));
        l.add("{\"Event\":\"SparkListenerBlockManagerAdded\",\"Block Manager ID\":{\"Executor ID\":\"1\","
                + "\"Host\":\"10.0.0.2\",\"Port\":40001},\"Maximum Memory\":2101975449,\"Timestamp\":" + (T0 + 2_050)
                + ",\"Maximum Onheap Memory\":2101975449,\"Maximum Offheap Memory\":0}");
        l.add("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\",\"executionId\":0,"
                + "\"rootExecutionId\":0,\"description\":\"insert into sales_daily\",\"details\":\"org.apache.spark."
                + "sql.Dataset.save\",\"physicalPlanDescription\":\"== Physical Plan ==\\nAdaptiveSparkPlan (5)\","
                + "\"sparkPlanInfo\":{\"nodeName\":\"AdaptiveSparkPlan\",\"simpleString\":\"AdaptiveSparkPlan "
                + "isFinalPlan=false\",\"children\":[{\"nodeName\":\"HashAggregate\",\"simpleString\":\"HashAggregate"
                + "(keys=[day])\",\"children\":[],\"metadata\":{},\"metrics\":[{\"name\":\"number of output rows\","
                + "\"accumulatorId\":31,\"metricType\":\"sum\"},{\"name\":\"spill size\",\"accumulatorId\":32,"
                + "\"metricType\":\"size\"}]}],\"metadata\":{},\"metrics\":[]},\"time\":" + (T0 + 3_000)
                + ",\"modifiedConfigs\":{},\"jobTags\":[]}");
        l.add("{\"Event\":\"SparkListenerJobStart\",\"Job ID\":0,\"Submission Time\":" + (T0 + 3_100)
                + ",\"Stage Infos\":[" + stageInfo(0, 4, List.of(), -1, -1) + "," + stageInfo(1, 4, List.of(0), -1, -1)
                + "],\"Stage IDs\":[0,1],\"Properties\":{\"spark.sql.execution.id\":\"0\","
                + "\"spark.job.description\":\"insert into sales_daily\",\"spark.rdd.scope\":\"{}\"}}");
        l.add(stageSubmitted(0, 4, List.of(), T0 + 3_200));
        long t = T0 + 3_300;
        // stage 0: three successes, one failure and its retry
        l.add(taskStart(0, 0, 0, 0, "1", t));
        l.add(taskStart(0, 1, 1, 0, "2", t + 1));
        l.add(taskEnd(0, 0, 0, 0, "1", t, t + 900, "{\"Reason\":\"Success\"}", false, 0));
        l.add(taskStart(0, 2, 2, 0, "1", t + 901));
        l.add(taskEnd(0, 1, 1, 0, "2", t + 1, t + 1_200, "{\"Reason\":\"ExceptionFailure\",\"Class Name\":"
                + "\"java.io.IOException\",\"Description\":\"disk full\",\"Stack Trace\":[{\"Declaring Class\":"
                + "\"X\",\"Method Name\":\"m\",\"File Name\":\"X.java\",\"Line Number\":3}],\"Full Stack Trace\":"
                + "\"java.io.IOException: disk full\\n\\tat X.m(X.java:3)\",\"Accumulables\":[]}", false, 0));
        l.add(taskStart(0, 3, 1, 1, "2", t + 1_201));
        l.add(taskEnd(0, 2, 2, 0, "1", t + 901, t + 1_700, "{\"Reason\":\"Success\"}", false, t + 1_650));
        l.add(taskStart(0, 4, 3, 0, "1", t + 1_701));
        l.add(taskEnd(0, 3, 1, 1, "2", t + 1_201, t + 2_000, "{\"Reason\":\"Success\"}", false, 0));
        l.add(taskEnd(0, 4, 3, 0, "1", t + 1_701, t + 2_400, "{\"Reason\":\"Success\"}", false, 0));
        l.add(stageExecutorMetrics("1", 0));
        l.add(stageExecutorMetrics("driver", 0));
        l.add(stageCompleted(0, 4, List.of(), T0 + 3_200, t + 2_450));
        l.add(stageSubmitted(1, 4, List.of(0), t + 2_500));
        long u = t + 2_600;
        // stage 1: a speculative copy that is killed once the original succeeds
        for (int i = 0; i < 4; i++) {
            l.add(taskStart(1, 10 + i, i, 0, i % 2 == 0 ? "1" : "2", u + i));
        }
        l.add(taskStart(1, 14, 3, 1, "1", u + 700));
        for (int i = 0; i < 4; i++) {
            l.add(taskEnd(1, 10 + i, i, 0, i % 2 == 0 ? "1" : "2", u + i, u + 800 + 100L * i,
                    "{\"Reason\":\"Success\"}", false, 0));
        }
        l.add(taskEnd(1, 14, 3, 1, "1", u + 700, u + 1_150, "{\"Reason\":\"TaskKilled\",\"Kill Reason\":"
                + "\"another attempt succeeded\",\"Accumulables\":[]}", true, 0));
        l.add(stageCompleted(1, 4, List.of(0), t + 2_500, u + 1_200));
        l.add("{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":" + (u + 1_250)
                + ",\"Job Result\":{\"Result\":\"JobSucceeded\"}}");
        l.add("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates\",\"executionId\":0,"
                + "\"accumUpdates\":[[31,120],[32,0]]}");
        l.add("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd\",\"executionId\":0,"
                + "\"time\":" + (u + 1_300) + ",\"errorMessage\":\"\"}");
        l.add("{\"Event\":\"SparkListenerExecutorRemoved\",\"Timestamp\":" + (u + 5_000) + ",\"Executor ID\":\"2\","
                + "\"Removed Reason\":\"Executor killed by driver.\"}");
        l.add("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":" + (u + 6_000) + "}");
        return l;
    }

    static String executorAdded(String id, String host, long time) {
        return "{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":" + time + ",\"Executor ID\":\"" + id
                + "\",\"Executor Info\":{\"Host\":\"" + host + "\",\"Total Cores\":2,\"Log Urls\":{\"stdout\":"
                + "\"http://" + host + ":8042/stdout\"},\"Attributes\":{},\"Resources\":{},\"Resource Profile Id\":0,"
                + "\"Registration Time\":" + time + ",\"Request Time\":" + (time - 900) + "}}";
    }

    static String stageInfo(int id, int numTasks, List<Integer> parents, long submitted, long completed) {
        return "{\"Stage ID\":" + id + ",\"Stage Attempt ID\":0,\"Stage Name\":\"save at Etl.scala:" + (40 + id)
                + "\",\"Number of Tasks\":" + numTasks + ",\"RDD Info\":[{\"RDD ID\":" + id + ",\"Name\":"
                + "\"MapPartitionsRDD\",\"Scope\":\"{}\",\"Callsite\":\"save at Etl.scala:41\",\"Parent IDs\":[],"
                + "\"Storage Level\":{\"Use Disk\":false,\"Use Memory\":false,\"Deserialized\":false,\"Replication\":"
                + "1},\"Barrier\":false,\"DeterministicLevel\":\"DETERMINATE\",\"Number of Partitions\":" + numTasks
                + ",\"Number of Cached Partitions\":0,\"Memory Size\":0,\"Disk Size\":0}],\"Parent IDs\":"
                + parents + ",\"Details\":\"org.apache.spark.sql.Dataset.save(Dataset.scala:1)\\nEtl.main\""
                + (submitted > 0 ? ",\"Submission Time\":" + submitted : "")
                + (completed > 0 ? ",\"Completion Time\":" + completed : "")
                + ",\"Accumulables\":" + (completed > 0 ? "[{\"ID\":31,\"Name\":\"number of output rows\","
                + "\"Value\":\"120\",\"Internal\":true,\"Count Failed Values\":true,\"Metadata\":\"sql\"}]" : "[]")
                + ",\"Resource Profile Id\":0,\"Shuffle Push Enabled\":false,\"Shuffle Push Mergers Count\":0}";
    }

    static String stageSubmitted(int id, int numTasks, List<Integer> parents, long submitted) {
        return "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":"
                + stageInfo(id, numTasks, parents, submitted, -1) + ",\"Properties\":{\"spark.sql.execution.id\":\"0\"}}";
    }

    static String stageCompleted(int id, int numTasks, List<Integer> parents, long submitted, long completed) {
        return "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":"
                + stageInfo(id, numTasks, parents, submitted, completed) + "}";
    }

    private static String taskInfo(long taskId, int index, int attempt, String executor, long launch, long finish,
                                   boolean killed, long gettingResult, boolean failed) {
        return "{\"Task ID\":" + taskId + ",\"Index\":" + index + ",\"Attempt\":" + attempt + ",\"Partition ID\":"
                + index + ",\"Launch Time\":" + launch + ",\"Executor ID\":\"" + executor + "\",\"Host\":\"10.0.0."
                + (executor.equals("1") ? 2 : 3) + "\",\"Locality\":\"PROCESS_LOCAL\",\"Speculative\":" + (taskId == 14)
                + ",\"Getting Result Time\":" + gettingResult + ",\"Finish Time\":" + finish + ",\"Failed\":" + failed
                + ",\"Killed\":" + killed + ",\"Accumulables\":[{\"ID\":5,\"Name\":\"internal.metrics.executorRunTime\","
                + "\"Update\":700,\"Value\":700,\"Internal\":true,\"Count Failed Values\":true}]}";
    }

    static String taskStart(int stage, long taskId, int index, int attempt, String executor, long launch) {
        return "{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":" + stage + ",\"Stage Attempt ID\":0,\"Task Info\":"
                + taskInfo(taskId, index, attempt, executor, launch, 0, false, 0, false) + "}";
    }

    static String taskEnd(int stage, long taskId, int index, int attempt, String executor, long launch, long finish,
                          String reason, boolean killed, long gettingResult) {
        boolean failed = reason.contains("ExceptionFailure");
        long run = Math.max(0, finish - launch - 60);
        return "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":" + stage + ",\"Stage Attempt ID\":0,\"Task Type\":\""
                + (stage == 0 ? "ShuffleMapTask" : "ResultTask") + "\",\"Task End Reason\":" + reason + ",\"Task Info\":"
                + taskInfo(taskId, index, attempt, executor, launch, finish, killed, gettingResult, failed)
                + ",\"Task Executor Metrics\":{\"JVMHeapMemory\":104857600,\"JVMOffHeapMemory\":52428800},"
                + "\"Task Metrics\":{\"Executor Deserialize Time\":20,\"Executor Deserialize CPU Time\":15000000,"
                + "\"Executor Run Time\":" + run + ",\"Executor CPU Time\":" + run * 900_000 + ",\"Peak Execution "
                + "Memory\":1048576,\"Result Size\":2000,\"JVM GC Time\":" + run / 20 + ",\"Result Serialization "
                + "Time\":1,\"Memory Bytes Spilled\":0,\"Disk Bytes Spilled\":0,\"Shuffle Read Metrics\":{\"Remote "
                + "Blocks Fetched\":" + stage * 2 + ",\"Local Blocks Fetched\":" + stage * 2 + ",\"Fetch Wait Time\":3,"
                + "\"Remote Bytes Read\":" + stage * 4096 + ",\"Remote Bytes Read To Disk\":0,\"Local Bytes Read\":"
                + stage * 4096 + ",\"Total Records Read\":" + stage * 30 + ",\"Remote Requests Duration\":2,"
                + "\"Push Based Shuffle\":{\"Corrupt Merged Block Chunks\":0,\"Merged Fetch Fallback Count\":0,"
                + "\"Merged Remote Blocks Fetched\":0,\"Merged Local Blocks Fetched\":0,\"Merged Remote Chunks "
                + "Fetched\":0,\"Merged Local Chunks Fetched\":0,\"Merged Remote Bytes Read\":0,\"Merged Local Bytes "
                + "Read\":0,\"Merged Remote Requests Duration\":0}},\"Shuffle Write Metrics\":{\"Shuffle Bytes "
                + "Written\":" + (1 - stage) * 8192 + ",\"Shuffle Write Time\":" + (1 - stage) * 2_000_000
                + ",\"Shuffle Records Written\":" + (1 - stage) * 30 + "},\"Input Metrics\":{\"Bytes Read\":"
                + (1 - stage) * 65536 + ",\"Records Read\":" + (1 - stage) * 30 + "},\"Output Metrics\":{\"Bytes "
                + "Written\":" + stage * 1024 + ",\"Records Written\":" + stage * 30 + "},\"Updated Blocks\":[]}}";
    }

    static String stageExecutorMetrics(String executor, int stage) {
        return "{\"Event\":\"SparkListenerStageExecutorMetrics\",\"Executor ID\":\"" + executor + "\",\"Stage ID\":"
                + stage + ",\"Stage Attempt ID\":0,\"Executor Metrics\":{\"JVMHeapMemory\":209715200,"
                + "\"JVMOffHeapMemory\":62914560,\"OnHeapExecutionMemory\":1048576,\"TotalGCTime\":120,"
                + "\"MinorGCCount\":4,\"MinorGCTime\":100,\"MajorGCCount\":1,\"MajorGCTime\":20}}";
    }
}
