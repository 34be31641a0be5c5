package io.sparkscope.listener;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StageSummary.StageStatus;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.store.TestDb;
import org.apache.spark.Resubmitted$;
import org.apache.spark.SparkContext;
import org.apache.spark.Success$;
import org.apache.spark.TaskEndReason;
import org.apache.spark.TaskKilled;
import org.apache.spark.TaskState;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.executor.ExecutorMetrics;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.LiveListenerBus;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.scheduler.TaskLocality;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What Spark posts when things go wrong, on a real local SparkContext's listener bus: a finished task reported
 * again as Resubmitted (its executor's shuffle output was lost), a task end delivered twice, and a speculative copy
 * of a slow task. The recorder counts them as Spark's AppStatusListener does, except that a repeated delivery
 * counts once, and the database holds one row per task id (the task table's key: a second row for one id used to abort the whole write).
 */
class RepeatedTaskEndsOnTheBusTest {
    /** A stage id no job of this test's application reaches. */
    private static final int STAGE = 9000;

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final scala.collection.immutable.Seq NO_SEQ =
            (scala.collection.immutable.Seq) scala.collection.immutable.Nil$.MODULE$;

    @SuppressWarnings("unchecked")
    private static StageInfo stageInfo(long submitted) {
        StageInfo info = new StageInfo(STAGE, 0, "repeated task ends", 2, NO_SEQ, NO_SEQ, "posted by a test", null,
                NO_SEQ, scala.Option.empty(), 0, false, 0);
        info.submissionTime_$eq(scala.Option.apply((Object) submitted));
        return info;
    }

    private static TaskInfo taskInfo(long taskId, int index, int attempt, long launch, boolean speculative) {
        return new TaskInfo(taskId, index, attempt, index, launch, "driver", "127.0.0.1",
                TaskLocality.PROCESS_LOCAL(), speculative);
    }

    private static TaskMetrics metrics(long runTimeMs) {
        TaskMetrics m = new TaskMetrics();
        m.setExecutorRunTime(runTimeMs);
        m.setExecutorDeserializeTime(1);
        return m;
    }

    private static SparkListenerTaskEnd end(TaskEndReason reason, TaskInfo info, TaskMetrics m) {
        return new SparkListenerTaskEnd(STAGE, 0, "ShuffleMapTask", reason, info, new ExecutorMetrics(), m);
    }

    @Test
    @SuppressWarnings("unchecked")
    void resubmittedDuplicatedAndSpeculativeTaskEndsGiveOneRowPerTaskId(@TempDir Path dir) throws Exception {
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        SparkSession spark = LocalSpark.start("repeated-task-ends", Map.of(
                "spark.sparkscope.jdbc.url", TestDb.url(db),
                "spark.sparkscope.spool.dir", dir.resolve("spool").toString()));
        SparkscopeListener listener = SparkscopeListener.latest();
        assertNotNull(listener);
        SparkContext sc = spark.sparkContext();
        // a real job besides (an RDD one: no SQL code generation to wait for)
        JavaSparkContext.fromSparkContext(sc).parallelize(java.util.List.of(1, 2, 3, 4), 2).count();

        LiveListenerBus bus = sc.listenerBus();
        long t = System.currentTimeMillis();
        StageInfo stage = stageInfo(t);
        bus.post(new SparkListenerStageSubmitted(stage, new Properties()));
        TaskInfo first = taskInfo(900_001, 0, 0, t + 10, false);
        TaskInfo slow = taskInfo(900_002, 1, 0, t + 10, false);
        TaskInfo copy = taskInfo(900_003, 1, 1, t + 200, true);
        for (TaskInfo info : new TaskInfo[]{first, slow, copy}) {
            bus.post(new SparkListenerTaskStart(STAGE, 0, info));
        }
        first.markFinished(TaskState.FINISHED(), t + 110);
        SparkListenerTaskEnd firstEnd = end(Success$.MODULE$, first, metrics(80));
        bus.post(firstEnd);
        bus.post(firstEnd); // delivered twice
        copy.markFinished(TaskState.FINISHED(), t + 260);
        bus.post(end(Success$.MODULE$, copy, metrics(50)));
        slow.markFinished(TaskState.KILLED(), t + 270);
        bus.post(end(new TaskKilled("another attempt succeeded", NO_SEQ, NO_SEQ, NO_SEQ), slow, metrics(240)));
        // the executor that held task 900001's output is lost: Spark reports it again and runs index 0 once more
        bus.post(end(Resubmitted$.MODULE$, first, null));
        TaskInfo rerun = taskInfo(900_004, 0, 1, t + 300, false);
        bus.post(new SparkListenerTaskStart(STAGE, 0, rerun));
        rerun.markFinished(TaskState.FINISHED(), t + 350);
        bus.post(end(Success$.MODULE$, rerun, metrics(40)));
        stage.completionTime_$eq(scala.Option.apply((Object) (t + 400)));
        bus.post(new SparkListenerStageCompleted(stage));
        spark.stop();

        ListenerOutageTest.waitFor("the final snapshot", Duration.ofSeconds(20), () ->
                listener.lastSnapshot() != null && listener.lastSnapshot().complete());
        AppSnapshot s = listener.lastSnapshot();
        StageSummary st = s.stages().stream().filter(x -> x.stageId() == STAGE).findFirst().orElseThrow();
        assertEquals(StageStatus.COMPLETE, st.status());
        // Spark's counts, once per task attempt: the second delivery of 900001's end is a repeat (Spark's own
        // listener would count it again), its Resubmitted end counts as Spark counts it
        assertEquals(3, st.numCompleteTasks(), "900001, the copy, the rerun");
        assertEquals(1, st.numFailedTasks(), "the Resubmitted end");
        assertEquals(1, st.numKilledTasks());
        assertEquals(2, st.numCompletedIndices());
        assertEquals(80 + 50 + 240 + 40, st.totals().get(TaskMetric.EXECUTOR_RUN_TIME), "each task's metrics once");
        // what they hold
        assertEquals(4, st.endedTasks());
        assertEquals(1, st.numResubmittedTasks());
        assertEquals(1, st.numDuplicateTaskEnds());
        assertEquals(1, st.numSpeculativeTasks());
        assertEquals(0, st.numActiveTasks());
        assertEquals(3, st.taskSummary().count(), "successful tasks with metrics, each once");
        Set<Long> ids = new HashSet<>();
        for (TaskRecord r : st.keptTasks()) {
            assertTrue(ids.add(r.taskId()), "task " + r.taskId() + " kept twice");
        }
        assertEquals(Set.of(900_001L, 900_002L, 900_003L, 900_004L), ids);
        assertEquals("SUCCESS", st.keptTasks().stream().filter(r -> r.taskId() == 900_001L).findFirst()
                .orElseThrow().status(), "the Resubmitted end does not turn the finished task into a failure");

        // The rows: the application was written (a duplicate task key used to abort the transaction), one per task.
        ListenerOutageTest.waitFor("the stage's task rows", Duration.ofSeconds(20), () ->
                TestDb.count(ds, "select count(*) from task where stage_id = " + STAGE) == 4);
        assertEquals(4, TestDb.count(ds, "select count(distinct task_id) from task where stage_id = " + STAGE));
        assertEquals(3, TestDb.count(ds, "select num_complete_tasks from stage_attempt where stage_id = " + STAGE));
        assertEquals(2, TestDb.count(ds, "select num_completed_indices from stage_attempt where stage_id = " + STAGE));
        assertEquals(1, TestDb.count(ds, "select count(*) from application where status = 'COMPLETE'"));
    }
}
