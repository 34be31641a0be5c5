package io.sparkscope.listener;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import org.apache.spark.FetchFailed;
import org.apache.spark.executor.ExecutorMetrics;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.scheduler.TaskLocality;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.util.JsonProtocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A fetch failure's error text is Spark's own ({@code FetchFailed.toErrorString}, what Spark's UI and REST API show
 * for the task), whether the listener sees the failure live or the reader finds it in the event log Spark writes.
 */
class FetchFailedErrorTextTest {

    @Test
    void liveAndLoggedFetchFailuresCarrySparksErrorText(@TempDir Path dir) throws Exception {
        FetchFailed reason = new FetchFailed(BlockManagerId.apply("2", "host-2", 7337, scala.Option.empty()), 3,
                41L, 5, 7, "org.apache.spark.shuffle.FetchFailedException: Failed to connect\n\tat A.b(A.java:1)");
        String spark = reason.toErrorString();

        // live: what the listener hands the recorder
        assertEquals(spark, SparkEventConverter.reason(reason).stackTrace());

        // logged: the line Spark's own event-log writer makes for the task end, read back
        TaskInfo info = new TaskInfo(12, 0, 0, 0, 1000, "1", "host-1", TaskLocality.PROCESS_LOCAL(), false);
        info.markFinished(org.apache.spark.TaskState.FAILED(), 1100);
        String line = JsonProtocol.sparkEventToJsonString(new SparkListenerTaskEnd(1, 0, "ResultTask", reason, info,
                new ExecutorMetrics(), null));
        Path log = dir.resolve("local-1");
        Files.writeString(log, line + "\n");
        List<SparkEvent> events = new ArrayList<>();
        for (EventLogSource source : EventLogReader.discover(log)) {
            EventLogReader.read(source, events::add, problem -> { });
        }
        SparkEvent.TaskEnd end = (SparkEvent.TaskEnd) events.get(0);
        assertEquals(spark, end.reason().stackTrace());
        assertEquals("FetchFailed", end.reason().kind());
    }
}
