package io.sparkscope.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import javax.sql.DataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An event log with a credential in every text field Spark logs (each kind of configuration, job description and
 * group, SQL text, plan text and tree, task, stage, job and SQL error messages, executor remove reason), and checks
 * that none of the credentials shows up anywhere. Each secret is a unique string, so finding it means a leak.
 */
public final class SecretSamples {
    public static final String APP_ID = "app-secrets-1";
    public static final String APP_NAME = "nightly load";

    /** Where each secret was put → the secret. */
    public static final Map<String, String> SECRETS = secrets();

    /**
     * Text that must survive redaction around the secrets (a job description, a configuration value): proof that
     * the fields were stored and shown, with only the secret part replaced.
     */
    public static final List<String> KEPT = List.of("jdbc:postgresql://loader:*********(redacted)@db/users",
            "-Dmy.db.pass=*********(redacted)");
    /** What the stage failure reason becomes (the application page shows it). */
    public static final String KEPT_STAGE_FAILURE = "Job aborted due to stage failure: secret=*********(redacted)";
    /** What a kept failed task's error message becomes. */
    public static final String KEPT_TASK_ERROR = "Authorization: Bearer *********(redacted)";

    private static final ObjectMapper JSON = new ObjectMapper();

    private SecretSamples() {
    }

    private static Map<String, String> secrets() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("spark url user-info", "UrlPassw0rdA");
        m.put("spark apikey key", "ApiKeyValueB1");
        m.put("spark account.key key", "QWNjb3VudEtleUMy");
        m.put("spark credentials key", "CredValueD3");
        m.put("spark extraJavaOptions -D", "JvmPassE4");
        m.put("system property command line", "SysCmdPassF5");
        m.put("system property trustStorePassword", "TrustPwG6");
        m.put("hadoop secret.key", "S3SecretH7");
        m.put("hadoop access key id", "AKIAQWERTYUIOPASDFGH");
        m.put("jvm information", "JvmInfoTokI8");
        m.put("job description url", "JobDescPwK1");
        m.put("job group token", "JobGroupTokL2");
        m.put("extra regex in job description", "ACME-7731");
        m.put("sql text", "SqlTextPwM3");
        m.put("plan text", "PlanPwN4");
        m.put("plan node", "PlanNodePwO5");
        m.put("sql error", "SqlErrPwP6");
        m.put("task error bearer", "TaskErrTokQ7abc");
        m.put("task stack trace", "StackPwW4");
        m.put("stage failure", "StageFailR8");
        m.put("stage name", "StageNameS9");
        m.put("stage details", "StageDetT1x");
        m.put("job failure", "JobFailU2");
        m.put("executor remove reason", "ExecRemV3");
        return java.util.Collections.unmodifiableMap(m);
    }

    private static String s(String where) {
        String v = SECRETS.get(where);
        if (v == null) {
            throw new IllegalArgumentException(where);
        }
        return v;
    }

    /** Writes the event log (plain JSON lines) into {@code dir} and returns it. */
    public static Path writeEventLog(Path dir) throws IOException {
        return writeEventLog(dir, APP_ID);
    }

    /** The same log for another application id (a second run, to compare). */
    public static Path writeEventLog(Path dir, String appId) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(obj("Event", "SparkListenerLogStart", "Spark Version", "3.5.1").toString());
        lines.add(obj("Event", "SparkListenerApplicationStart", "App Name", APP_NAME, "App ID", appId,
                "Timestamp", 1_000L, "User", "alice").toString());
        ObjectNode env = obj("Event", "SparkListenerEnvironmentUpdate");
        env.set("JVM Information", obj("Java Home", "/usr/lib/jvm", "Java Version", "17",
                "Launcher Args", "-Dlauncher.token=" + s("jvm information")));
        env.set("Spark Properties", obj(
                "spark.master", "local[2]",
                "spark.app.name", APP_NAME,
                "spark.executor.memory", "4g",
                "spark.sparkscope.jdbc.url", "jdbc:postgresql://app:" + s("spark url user-info") + "@db:5432/x",
                "spark.custom.apikey", s("spark apikey key"),
                "spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net", s("spark account.key key"),
                "spark.db.credentials", s("spark credentials key"),
                "spark.driver.extraJavaOptions", "-Xss4m -Dmy.db.pass=" + s("spark extraJavaOptions -D"),
                "spark.sparkscope.redaction.regex", "ACME-[0-9]{4}"));
        env.set("System Properties", obj(
                "sun.java.command", "org.apache.spark.deploy.SparkSubmit --conf spark.db.pass="
                        + s("system property command line") + " app.jar",
                "javax.net.ssl.trustStorePassword", s("system property trustStorePassword"),
                "user.dir", "/home/alice"));
        env.set("Hadoop Properties", obj(
                "fs.s3a.secret.key", s("hadoop secret.key"),
                "fs.s3a.endpoint.note", "uses key " + s("hadoop access key id"),
                "fs.defaultFS", "file:///"));
        lines.add(env.toString());
        ObjectNode added = obj("Event", "SparkListenerExecutorAdded", "Timestamp", 1_100L, "Executor ID", "1");
        added.set("Executor Info", obj("Host", "h1", "Total Cores", 2));
        lines.add(added.toString());

        ObjectNode sqlStart = obj("Event", "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart",
                "executionId", 0, "description", "SELECT * FROM users WHERE password = '" + s("sql text") + "'",
                "details", "", "physicalPlanDescription", "== Physical Plan ==\n*(1) Scan JDBCRelation(users) "
                        + "[numPartitions=1] Map(url -> jdbc:x, password -> " + s("plan text") + ")\n",
                "time", 1_150L);
        ObjectNode leaf = obj("nodeName", "Scan JDBCRelation(users)",
                "simpleString", "Scan JDBCRelation(users) [password=" + s("plan node") + "]");
        leaf.set("children", JSON.createArrayNode());
        leaf.set("metrics", JSON.createArrayNode());
        ObjectNode root = obj("nodeName", "WholeStageCodegen (1)", "simpleString", "WholeStageCodegen (1)");
        root.set("children", JSON.createArrayNode().add(leaf));
        root.set("metrics", JSON.createArrayNode());
        sqlStart.set("sparkPlanInfo", root);
        lines.add(sqlStart.toString());

        ObjectNode stageInfo = stageInfo(-1, null);
        ObjectNode jobStart = obj("Event", "SparkListenerJobStart", "Job ID", 0, "Submission Time", 1_200L);
        jobStart.set("Stage Infos", JSON.createArrayNode().add(stageInfo));
        jobStart.set("Stage IDs", JSON.createArrayNode().add(0));
        jobStart.set("Properties", obj(
                "spark.job.description", "load users from jdbc:postgresql://loader:" + s("job description url")
                        + "@db/users for customer " + s("extra regex in job description"),
                "spark.jobGroup.id", "group token=" + s("job group token"),
                "spark.sql.execution.id", "0"));
        lines.add(jobStart.toString());
        ObjectNode submitted = obj("Event", "SparkListenerStageSubmitted");
        submitted.set("Stage Info", stageInfo(-1, null));
        lines.add(submitted.toString());
        lines.add(taskStart(0));
        lines.add(taskStart(1));
        lines.add(taskEnd(0, null));
        ObjectNode failure = obj("Reason", "ExceptionFailure", "Class Name", "java.lang.RuntimeException",
                "Description", "login failed: Authorization: Bearer " + s("task error bearer"),
                "Full Stack Trace", "java.lang.RuntimeException: password=" + s("task stack trace")
                        + "\n\tat X.y(X.java:1)");
        failure.set("Stack Trace", JSON.createArrayNode());
        failure.set("Accumulator Updates", JSON.createArrayNode());
        lines.add(taskEnd(1, failure));
        ObjectNode completed = obj("Event", "SparkListenerStageCompleted");
        completed.set("Stage Info", stageInfo(1_900L, "Job aborted due to stage failure: secret="
                + s("stage failure")));
        lines.add(completed.toString());
        ObjectNode jobEnd = obj("Event", "SparkListenerJobEnd", "Job ID", 0, "Completion Time", 1_950L);
        ObjectNode result = obj("Result", "JobFailed");
        result.set("Exception", obj("Message", "Job failed: pwd=" + s("job failure")));
        jobEnd.set("Job Result", result);
        lines.add(jobEnd.toString());
        lines.add(obj("Event", "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd", "executionId", 0,
                "time", 1_960L, "errorMessage", "java.sql.SQLException: connect failed for https://u:"
                        + s("sql error") + "@host/x").toString());
        lines.add(obj("Event", "SparkListenerExecutorRemoved", "Timestamp", 1_970L, "Executor ID", "1",
                "Removed Reason", "Container killed; token=" + s("executor remove reason")).toString());
        lines.add(obj("Event", "SparkListenerApplicationEnd", "Timestamp", 2_000L).toString());
        Path file = dir.resolve(appId);
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file;
    }

    private static ObjectNode stageInfo(long completion, String failure) {
        ObjectNode n = obj("Stage ID", 0, "Stage Attempt ID", 0,
                "Stage Name", "save at Jdbc.scala:12 apikey=" + s("stage name"), "Number of Tasks", 2,
                "Details", "org.example.Load.main(Load.scala:12)\nwith access_key=" + s("stage details"),
                "Submission Time", 1_210L);
        n.set("Parent IDs", JSON.createArrayNode());
        n.set("RDD Info", JSON.createArrayNode());
        n.set("Accumulables", JSON.createArrayNode());
        if (completion > 0) {
            n.put("Completion Time", completion);
        }
        if (failure != null) {
            n.put("Failure Reason", failure);
        }
        return n;
    }

    private static String taskStart(int index) {
        ObjectNode e = obj("Event", "SparkListenerTaskStart", "Stage ID", 0, "Stage Attempt ID", 0);
        e.set("Task Info", taskInfo(index, 0, false));
        return e.toString();
    }

    private static String taskEnd(int index, ObjectNode failure) {
        ObjectNode e = obj("Event", "SparkListenerTaskEnd", "Stage ID", 0, "Stage Attempt ID", 0,
                "Task Type", "ResultTask");
        e.set("Task End Reason", failure == null ? obj("Reason", "Success") : failure);
        e.set("Task Info", taskInfo(index, 1_300L + 100L * index, failure != null));
        e.set("Task Metrics", obj("Executor Deserialize Time", 1, "Executor Run Time", 50, "JVM GC Time", 2,
                "Result Size", 10));
        return e.toString();
    }

    private static ObjectNode taskInfo(int index, long finish, boolean failed) {
        ObjectNode n = obj("Task ID", index, "Index", index, "Attempt", 0, "Partition ID", index,
                "Launch Time", 1_220L, "Executor ID", "1", "Host", "h1", "Locality", "PROCESS_LOCAL",
                "Speculative", false, "Getting Result Time", 0, "Finish Time", finish, "Failed", failed,
                "Killed", false);
        n.set("Accumulables", JSON.createArrayNode());
        return n;
    }

    private static ObjectNode obj(Object... kv) {
        ObjectNode n = JSON.createObjectNode();
        for (int i = 0; i < kv.length; i += 2) {
            String k = (String) kv[i];
            Object v = kv[i + 1];
            if (v instanceof String sv) {
                n.put(k, sv);
            } else if (v instanceof Long lv) {
                n.put(k, lv);
            } else if (v instanceof Integer iv) {
                n.put(k, iv);
            } else if (v instanceof Boolean bv) {
                n.put(k, bv);
            } else {
                throw new IllegalArgumentException(k);
            }
        }
        return n;
    }

    /** The secrets found in {@code text}, as "where: secret"; empty when none leaked. */
    public static List<String> leaks(String text) {
        List<String> found = new ArrayList<>();
        if (text == null) {
            return found;
        }
        SECRETS.forEach((where, secret) -> {
            if (text.contains(secret)) {
                found.add(where + ": " + secret);
            }
        });
        return found;
    }

    /**
     * Every text, varchar, json and jsonb value in every table of the public schema, as "table.column=value"
     * lines: what a leak search of the database must cover.
     */
    public static String everyStoredText(DataSource ds) throws SQLException {
        StringBuilder sb = new StringBuilder();
        List<String[]> columns = new ArrayList<>();
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("select table_name, column_name from information_schema.columns "
                    + "where table_schema = 'public' and data_type in ('text', 'character varying', 'json', 'jsonb',"
                    + " 'ARRAY', 'bytea') order by table_name, column_name")) {
                while (rs.next()) {
                    columns.add(new String[]{rs.getString(1), rs.getString(2)});
                }
            }
            for (String[] tc : columns) {
                // names come from the catalogue, quoted as identifiers
                String sql = "select \"" + tc[1].replace("\"", "\"\"") + "\"::text from \"" + tc[0].replace("\"", "\"\"") + "\"";
                try (ResultSet rs = st.executeQuery(sql)) {
                    while (rs.next()) {
                        sb.append(tc[0]).append('.').append(tc[1]).append('=').append(rs.getString(1)).append('\n');
                    }
                }
            }
        }
        return sb.toString();
    }
}
