package io.sparkscope.core.recorder;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.event.StageInfo;
import io.sparkscope.core.event.TaskEndReason;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.json.SnapshotCodec;
import io.sparkscope.core.redact.Redactor;
import io.sparkscope.core.redact.SnapshotRedactor;
import io.sparkscope.core.report.SnapshotJson;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The recorder's snapshots carry no credential in any text field, and redacting costs little when nothing changed. */
class SnapshotRedactionTest {
    private static final List<String> SECRETS = List.of("UrlPw1", "ApiKey2", "JvmPw3", "SysPw4", "HadoopKey5",
            "DescPw6", "GroupTok7", "SqlPw8", "PlanPw9", "NodePw10", "SqlErr11", "TaskTok12", "StageFail13",
            "JobFail14", "ExecRem15", "StageName16", "Details17", "Extra-9931", "AppNamePw18");

    private static Recorder recorded() {
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.ApplicationStart("load password=AppNamePw18", "app-1", null, 1000, "alice"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(
                Map.of("spark.master", "local[2]", "spark.custom.apikey", "ApiKey2",
                        "spark.sparkscope.jdbc.url", "jdbc:postgresql://app:UrlPw1@db/x",
                        "spark.sparkscope.redaction.regex", "Extra-[0-9]{4}"),
                Map.of("Launcher", "-Dlaunch.pass=JvmPw3"),
                Map.of("sun.java.command", "SparkSubmit --conf spark.db.pwd=SysPw4 app.jar"),
                Map.of("fs.azure.account.key.a.blob.core.windows.net", "HadoopKey5")));
        r.onEvent(new SparkEvent.ExecutorAdded(1100, "1", "h1", 2));
        PlanNode leaf = new PlanNode("Scan", "Scan JDBCRelation(t) [password=NodePw10]", List.of(), List.of());
        r.onEvent(new SparkEvent.SqlExecutionStart(0, "SELECT * FROM t WHERE password = 'SqlPw8'",
                "== Physical Plan ==\nScan Map(password -> PlanPw9)", new PlanNode("Root", "Root", List.of(leaf),
                List.of()), 1150));
        StageInfo stage = new StageInfo(0, 0, "save at X.scala:1 token=StageName16", 2, List.of(),
                "X.main\nsecret=Details17", 1200, -1, null, List.of());
        r.onEvent(new SparkEvent.JobStart(0, 1200, List.of(0), List.of(stage),
                Map.of("spark.job.description", "copy jdbc:postgresql://u:DescPw6@db/x for Extra-9931",
                        "spark.jobGroup.id", "nightly token=GroupTok7", "spark.sql.execution.id", "0")));
        r.onEvent(new SparkEvent.StageSubmitted(stage));
        r.onEvent(new SparkEvent.TaskStart(0, 0, Events.task(1, 0, 1300, 0, "1", false)));
        r.onEvent(Events.success(0, 0, Events.task(1, 0, 1300, 1400, "1", false), Events.metrics(50, 1)));
        r.onEvent(new SparkEvent.TaskEnd(0, 0, "ResultTask",
                new TaskEndReason("ExceptionFailure", "java.io.IOException: Authorization: Bearer TaskTok12", null),
                Events.task(2, 1, 1300, 1500, "1", true), Events.metrics(40, 1)));
        r.onEvent(new SparkEvent.StageCompleted(new StageInfo(0, 0, stage.name(), 2, List.of(), stage.details(),
                1200, 1600, "Job aborted: apikey=StageFail13", List.of())));
        r.onEvent(new SparkEvent.JobEnd(0, 1650, false, "failed: pwd=JobFail14"));
        r.onEvent(new SparkEvent.SqlExecutionEnd(0, 1660, "java.sql.SQLException: token=SqlErr11"));
        r.onEvent(new SparkEvent.ExecutorRemoved(1700, "1", "lost: https://u:ExecRem15@h/x"));
        r.onEvent(new SparkEvent.ApplicationEnd(2000));
        return r;
    }

    @Test
    void noSecretReachesTheSnapshotItsCodecOrItsReport() throws Exception {
        AppSnapshot s = recorded().snapshot();
        String lossless = SnapshotCodec.toJson(s);
        String report = SnapshotJson.toJson(SnapshotJson.toMap(s, RecorderOptions.DEFAULTS.computedQuantiles(),
                List.of(), true));
        for (String secret : SECRETS) {
            assertFalse(lossless.contains(secret), secret + " in " + lossless);
            assertFalse(report.contains(secret), secret + " in the report");
        }
        assertEquals("copy jdbc:postgresql://u:" + Redactor.REDACTED + "@db/x for " + Redactor.REDACTED,
                s.jobs().get(0).description(), "only the secret parts go");
        assertEquals("Extra-[0-9]{4}", s.config().sparkProperties().get(Redactor.EXTRA_REGEX_KEY));
        assertEquals("lost: https://u:" + Redactor.REDACTED + "@h/x", s.executors().get(0).removeReason());
        assertTrue(s.stages().get(0).keptTasks().stream().anyMatch(t -> t.errorMessage() != null
                && t.errorMessage().endsWith("Bearer " + Redactor.REDACTED)));
    }

    @Test
    void redactingAgainChangesNothingAndReturnsTheSameObjects() {
        Recorder r = recorded();
        AppSnapshot first = r.snapshot();
        assertSame(first, SnapshotRedactor.redact(first), "an already redacted snapshot comes back as it is");
        AppSnapshot second = r.snapshot();
        assertSame(first.stages().get(0), second.stages().get(0), "a completed stage is redacted once");
        assertSame(first.sqlExecutions().get(0).plan(), second.sqlExecutions().get(0).plan(),
                "a plan tree is redacted once");
        assertSame(first.config(), second.config());
        // the job and the SQL execution both held secrets, so a field-by-field redaction would copy them anew
        assertSame(first.jobs().get(0), second.jobs().get(0), "a job is redacted once");
        assertSame(first.sqlExecutions().get(0), second.sqlExecutions().get(0), "a SQL execution is redacted once");
        assertEquals(first, second);
    }
}
