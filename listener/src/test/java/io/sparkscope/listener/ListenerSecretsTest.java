package io.sparkscope.listener;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.store.SecretSamples;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.TestDb;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.cluster.ExecutorInfo;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real local application puts credentials into every text Spark hands a listener — its configuration (Spark,
 * system and Hadoop properties), a job description and group, SQL text and plan, task, stage, job and SQL error
 * messages, an executor's remove reason — and none of them reaches a database row.
 */
class ListenerSecretsTest {
    private static final Map<String, String> SECRETS = Map.ofEntries(
            Map.entry("jdbc password in the URL", "LsJdbcPw6"),
            Map.entry("jdbc.password", "LsJdbcPw7"),
            Map.entry("apikey key", "LsApiKey1"),
            Map.entry("credentials key", "LsCred2"),
            Map.entry("extraJavaOptions", "LsJvmPass3"),
            Map.entry("hadoop account key", "LsAcctKey4"),
            Map.entry("system property", "LsSysPwd5"),
            Map.entry("job description", "LsDescPw8"),
            Map.entry("job group", "LsGroupTok9"),
            Map.entry("sql text and plan", "LsSqlPw10"),
            Map.entry("task error", "LsTaskPw11"),
            Map.entry("sql error", "LsSqlErr12"),
            Map.entry("executor remove reason", "LsExecRem13"),
            Map.entry("stage name", "LsStageName14"));

    @Test
    void noCredentialReachesTheDatabase(@TempDir Path tmp) throws Exception {
        String db = TestDb.newDatabaseName();
        DataSource ds = TestDb.dataSource(db);
        Map<String, String> conf = new HashMap<>();
        // the embedded server trusts local connections, so the password in the URL is ignored
        conf.put("spark.sparkscope.jdbc.url", TestDb.url(db) + "&password=" + SECRETS.get("jdbc password in the URL"));
        conf.put("spark.sparkscope.jdbc.password", SECRETS.get("jdbc.password"));
        conf.put("spark.sparkscope.spool.dir", tmp.resolve("spool").toString());
        conf.put("spark.custom.apikey", SECRETS.get("apikey key"));
        conf.put("spark.db.credentials", SECRETS.get("credentials key"));
        conf.put("spark.driver.extraJavaOptions", "-Xss4m -Dmy.db.pass=" + SECRETS.get("extraJavaOptions"));
        conf.put("spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net", SECRETS.get("hadoop account key"));
        System.setProperty("sparkscope.test.db.pwd", SECRETS.get("system property"));
        String appId;
        try {
            SparkSession spark = LocalSpark.start("secrets", conf);
            appId = spark.sparkContext().applicationId();
            SparkContext sc = spark.sparkContext();
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);

            jsc.setJobGroup("nightly token=" + SECRETS.get("job group"), "load jdbc:postgresql://u:"
                    + SECRETS.get("job description") + "@db/x", false);
            assertEquals(10, spark.sql("SELECT id FROM range(10) WHERE cast(id AS string) != 'password="
                    + SECRETS.get("sql text and plan") + "'").collectAsList().size());
            jsc.clearJobGroup();

            sc.setCallSite("save at Load.scala:1 apikey=" + SECRETS.get("stage name"));
            String taskSecret = SECRETS.get("task error");
            try {
                jsc.parallelize(List.of(1, 2, 3), 1).map(x -> {
                    throw new IllegalStateException("cannot connect to jdbc:postgresql://u:" + taskSecret + "@db/x");
                }).collect();
            } catch (Exception expected) {
                // the job fails on purpose: task, stage and job failure messages carry the URL
            }
            sc.clearCallSite();
            try {
                spark.sql("SELECT assert_true(false, 'token=" + SECRETS.get("sql error") + "')").collectAsList();
            } catch (Exception expected) {
                // the SQL execution fails on purpose, with the token in its error message
            }
            // An executor must be known before its removal counts (a removal of an unknown executor is ignored, as
            // in Spark), so it is added first.
            sc.listenerBus().post(new SparkListenerExecutorAdded(System.currentTimeMillis(), "7",
                    new ExecutorInfo("localhost", 1, scala.collection.immutable.Map$.MODULE$.empty())));
            sc.listenerBus().post(new SparkListenerExecutorRemoved(System.currentTimeMillis(), "7",
                    "Container lost; token=" + SECRETS.get("executor remove reason")));
            spark.stop();
        } finally {
            System.clearProperty("sparkscope.test.db.pwd");
        }

        ListenerOutageTest.waitFor("every job ended in the database", Duration.ofSeconds(30), () -> {
            try {
                return SnapshotReader.read(ds, appId, null).map(s -> s.complete() && s.jobs().stream()
                        .noneMatch(j -> j.status() == JobSummary.JobStatus.RUNNING)).orElse(false);
            } catch (Exception e) {
                return false;
            }
        });
        AppSnapshot stored = SnapshotReader.read(ds, appId, null).orElseThrow();
        String rows = SecretSamples.everyStoredText(ds);
        List<String> leaks = new ArrayList<>();
        SECRETS.forEach((where, secret) -> {
            if (rows.contains(secret)) {
                leaks.add(where + ": " + secret);
            }
        });
        assertEquals(List.of(), leaks);
        // the texts themselves were recorded, with only the secret part replaced
        assertTrue(rows.contains("load jdbc:postgresql://u:*********(redacted)@db/x"), "job description");
        assertTrue(rows.contains("-Xss4m -Dmy.db.pass=*********(redacted)"), "extraJavaOptions");
        assertTrue(rows.contains("Container lost; token=*********(redacted)"), "executor remove reason");
        assertTrue(stored.jobs().stream().anyMatch(j -> j.failureReason() != null
                && j.failureReason().contains("jdbc:postgresql://u:*********(redacted)@db/x")), "job failure reason");
        assertTrue(stored.sqlExecutions().stream().anyMatch(q -> q.errorMessage() != null
                && q.errorMessage().contains("token=*********(redacted)")), "SQL error message");
    }
}
