package io.sparkscope.ingest.fetch;

import io.sparkscope.core.event.TaskEndReason;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Spark's REST error texts ({@code TaskFailedReason.toErrorString}, the bare kill reason) back to the kind and
 * description the event-log reader gives the same task.
 */
class TaskErrorsTest {
    private static void is(String kind, String description, TaskEndReason r) {
        assertEquals(kind, r.kind());
        assertEquals(description, r.description());
    }

    @Test
    void success() {
        assertEquals(TaskEndReason.SUCCESS, TaskErrors.reason("SUCCESS", null));
    }

    @Test
    void exceptionsKeepTheirFirstLineMarkedWhenTheMessageGoesOn() {
        is("ExceptionFailure", "java.lang.IllegalStateException: boom",
                TaskErrors.reason("FAILED", "java.lang.IllegalStateException: boom\n\tat A.b(A.java:1)\n"));
        is("ExceptionFailure", "java.lang.IllegalArgumentException: bad record 3 …",
                TaskErrors.reason("FAILED", "java.lang.IllegalArgumentException: bad record 3\nsecond line\n"
                        + "\tat A.b(A.java:1)"));
        is("ExceptionFailure", "java.lang.NullPointerException",
                TaskErrors.reason("FAILED", "java.lang.NullPointerException"));
    }

    @Test
    void killedTasksCarryTheBareReason() {
        is("TaskKilled", "another attempt succeeded", TaskErrors.reason("KILLED", "another attempt succeeded"));
        is("TaskKilled", "unknown reason", TaskErrors.reason("KILLED", null));
        is("TaskCommitDenied", "driver denied task commit for job 3, partition 7, attempt 1",
                TaskErrors.reason("KILLED",
                        "TaskCommitDenied (Driver denied task commit) for job: 3, partition: 7, attemptNumber: 1"));
    }

    @Test
    void otherKindsByTheirOpening() {
        is("ExecutorLostFailure", "Container killed by YARN for exceeding memory limits",
                TaskErrors.reason("FAILED", "ExecutorLostFailure (executor 4 exited caused by one of the running "
                        + "tasks) Reason: Container killed by YARN for exceeding memory limits"));
        is("ExecutorLostFailure", "executor 4 lost",
                TaskErrors.reason("FAILED", "ExecutorLostFailure (executor 4 exited unrelated to the running tasks)"));
        is("Resubmitted", "resubmitted due to lost executor",
                TaskErrors.reason("FAILED", "Resubmitted (resubmitted due to lost executor)"));
        is("TaskResultLost", "result lost from block manager",
                TaskErrors.reason("FAILED", "TaskResultLost (result lost from block manager)"));
        is("UnknownReason", "unknown reason", TaskErrors.reason("FAILED", "UnknownReason"));
        TaskEndReason fetch = TaskErrors.reason("FAILED", "FetchFailed(BlockManagerId(2, host-a, 7337, None), "
                + "shuffleId=1, mapIndex=5, mapId=17, reduceId=3, message=\n"
                + "org.apache.spark.shuffle.FetchFailedException: Connection reset\n\tat X.y(X.java:1)\n)");
        is("FetchFailed", "FetchFailed(BlockManagerId(2, host-a, 7337), shuffleId=1, mapIndex=5, mapId=17, reduceId=3, "
                + "message=org.apache.spark.shuffle.FetchFailedException: Connection reset …)", fetch);
        TaskEndReason noAddress = TaskErrors.reason("FAILED", "FetchFailed(null, shuffleId=1, mapIndex=Unknown, "
                + "mapId=-1, reduceId=0, message=\nlost\n)");
        is("FetchFailed", "FetchFailed(null, shuffleId=1, mapIndex=-2147483648, mapId=-1, reduceId=0, message=lost)",
                noAddress);
        assertNull(noAddress.stackTrace());
    }
}
