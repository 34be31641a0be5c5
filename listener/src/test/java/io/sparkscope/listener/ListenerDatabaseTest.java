package io.sparkscope.listener;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.json.SnapshotCodec;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.redact.Redactor;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.TestDb;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real local application recorded live into a real PostgreSQL, checked through the database rows (Spark swallows
 * listener exceptions, so log lines prove nothing), and compared with the same run read back from its event log.
 */
class ListenerDatabaseTest {

    @Test
    void liveRecordingEqualsTheReplayOfItsOwnEventLog(@TempDir Path eventLogDir) throws Exception {
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        SparkSession spark = LocalSpark.start("parity", Map.of(
                "spark.sparkscope.jdbc.url", TestDb.url(db),
                "spark.sparkscope.jdbc.password", "s3cret-never-stored",
                "spark.sparkscope.spool.dir", eventLogDir.resolve("spool").toString(),
                "spark.eventLog.enabled", "true",
                "spark.eventLog.dir", eventLogDir.toUri().toString()));
        String appId = spark.sparkContext().applicationId();
        LocalSpark.workload(spark);
        spark.stop();

        // Late events (a failed job's end can follow ApplicationEnd) are written within the listener's grace period.
        ListenerOutageTest.waitFor("every job ended in the database", java.time.Duration.ofSeconds(20), () -> {
            try {
                return SnapshotReader.read(ds, appId, null).map(s -> s.jobs().stream()
                        .noneMatch(j -> j.status() == io.sparkscope.core.model.JobSummary.JobStatus.RUNNING))
                        .orElse(false);
            } catch (Exception e) {
                return false;
            }
        });
        AppSnapshot stored = SnapshotReader.read(ds, appId, null).orElseThrow(
                () -> new AssertionError("application " + appId + " not in the database"));
        assertTrue(stored.complete(), "final state written before the driver stopped");
        assertEquals(Redactor.REDACTED, stored.config().sparkProperties().get("spark.sparkscope.jdbc.password"));
        assertTrue(TestDb.count(ds, "select count(*) from finding") >= 1, "findings stored");
        assertEquals(0, TestDb.count(ds, "select count(*) from configuration where value like '%s3cret%'"));

        // Spark 4 writes rolling logs (eventlog_v2_<appId>/), Spark 3.5 a single file <appId>
        EventLogSource log = EventLogReader.discover(eventLogDir).stream()
                .filter(l -> l.path().getFileName().toString().contains(appId)).findFirst().orElseThrow();
        AppSnapshot replayed = EventLogAnalysis.analyze(log, RecorderOptions.DEFAULTS,
                p -> { throw new AssertionError("problem reading Spark's own log: " + p); }).snapshot();

        String live = SnapshotCodec.toJson(comparable(stored));
        String fromLog = SnapshotCodec.toJson(comparable(replayed));
        assertEquals(fromLog, live, "live and replayed snapshots differ");
    }

    /**
     * What only one of the two paths can know is left out: event counts (the log holds events no listener sees and
     * vice versa) and executor peak metrics (heartbeats live, per-stage peaks in the log).
     */
    static AppSnapshot comparable(AppSnapshot s) {
        List<ExecutorSummary> executors = s.executors().stream().map(SnapshotBuilder::basicExecutor).toList();
        return AppSnapshot.builder().appId(s.appId()).attemptId(s.attemptId()).appName(s.appName())
                .sparkUser(s.sparkUser()).sparkVersion(s.sparkVersion()).startTime(s.startTime()).endTime(s.endTime())
                .lastEventTime(s.lastEventTime()).complete(s.complete()).config(s.config()).executors(executors)
                .jobs(s.jobs()).stages(s.stages()).sqlExecutions(s.sqlExecutions())
                .driverMaxMemory(s.driverMaxMemory()).build();
    }
}
