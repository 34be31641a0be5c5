package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Credentials in the shapes an attacker tries (provider tokens under ordinary keys, disguised key names, encoded
 * pairs, secrets after a space in prose) and near misses that must keep their text, each put into the field of an
 * event log where Spark would write it: configuration, plan text and plan nodes, failed tasks' errors, streaming
 * query errors, job descriptions and groups, SQL descriptions.
 *
 * <p>Each shape says what must vanish (unique strings, so finding one anywhere is a leak of that shape) and what
 * must stay (the redacted text around it, proof that the field was stored and shown with only the secret replaced).
 */
final class HostileShapes {
    static final String APP_ID = "app-hostile-shapes";
    /** The application's name holds a credential word and must still be shown. */
    static final String APP_NAME = "secret-app";
    static final String R = "*********(redacted)";

    /** Where Spark writes the text. */
    enum Field {
        CONFIG, PLAN, TASK_ERROR, STREAMING_ERROR, JOB_DESCRIPTION, JOB_GROUP, SQL_DESCRIPTION;

        /** Whether {@code analyze --json} prints this field (plan text and streaming errors it leaves out). */
        boolean inAnalyzeJson() {
            return this == CONFIG || this == JOB_DESCRIPTION || this == JOB_GROUP || this == SQL_DESCRIPTION;
        }
    }

    /**
     * @param key    the configuration key (CONFIG only)
     * @param text   the value or text written into the log
     * @param vanish what must not appear anywhere
     * @param stay   what must appear in the stored data
     */
    record Shape(String name, Field field, String key, String text, List<String> vanish, String stay) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String DAPI_CONFIG = "dapi0a1b2c3d4e5f60718293a4b5c6d7e8f9";
    private static final String DAPI_PLAN = "dapif9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4";
    private static final String AWS_SECRET_CONFIG = "Zq8wK7MDENGbPxRfiCYwJalrXUtnFEMIq3vTx9Lp";
    private static final String AWS_SECRET_STREAMING = "Hb3/TmQ9xVr2KpLw8YcNf4GdJs7ZaE1uWo6iRk0B";
    private static final String AWS_SECRET_JOB = "Pw7+RtY2uIo9PaSd4FgH6jKl1ZxCv3BnM8qWeTyU";
    private static final String AWS_ID_CONFIG = "AKIAZ2X3C4V5B6N7M8Q9";
    private static final String AWS_ID_TASK = "AKIAQ1W2E3R4T5Y6U7I8";
    private static final String AWS_ID_JOB = "ASIAP0O9I8U7Y6T5R4E3";
    private static final String BESIDE_ID = "W9xKp3LmQ7rT2vZ8sYn4Bc6Dh1Fg0a";
    private static final String GHP = "ghp_Gh1tHubT0kenAbCdEfGhIjKlMnOpQrStUv";
    private static final String GHS = "ghs_AppT0kenAbCdEfGhIjKlMnOpQrStUvWxYz";
    private static final String GITHUB_PAT = "github_pat_11AAAAAAA0FineGrainedT0kenAbCdEfGhIjKlMnOp";
    private static final String AZURE_KEY_CONFIG = "c3RvcmFnZUtleTEy+MzQ1Njc4/OTA=";
    private static final String AZURE_KEY_STREAMING = "YW5vdGhlcktleTk4+NzY1NDMy/MTA=";
    private static final String PEM_BODY = "MIIEpAIBAAKCAQEA7bq2WxPemBody";
    private static final String GOOGLE_CONFIG = "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q";
    private static final String GOOGLE_JOB = "AIzaSyZ9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J";

    static final List<Shape> ALL = shapes();

    private HostileShapes() {
    }

    private static List<Shape> shapes() {
        List<Shape> s = new ArrayList<>();
        // configuration: a credential's shape whatever the key, and keys that name a credential in disguise
        config(s, "Databricks token under an ordinary key", "spark.databricks.conn", DAPI_CONFIG, DAPI_CONFIG, null);
        config(s, "AWS secret key under an ordinary key", "spark.myapp.aws.value", AWS_SECRET_CONFIG,
                AWS_SECRET_CONFIG, null);
        config(s, "passcode key", "spark.myapp.passcode", "Pc4711zQ", "Pc4711zQ", null);
        config(s, "creds key", "spark.myapp.creds", "alice:Wond3rland", "Wond3rland", null);
        config(s, "auth key", "spark.myapp.auth", "AuthV4lue77", "AuthV4lue77", null);
        config(s, "zero-width space inside password", "spark.myapp.pass\u200Bword", "ZeroWidthPw9", "ZeroWidthPw9",
                null);
        config(s, "word joiner and byte-order mark inside secret", "spark.myapp.\uFEFFsec\u2060ret", "JoinerSecret8",
                "JoinerSecret8", null);
        config(s, "full-width password key", "spark.myapp.\uFF50\uFF41\uFF53\uFF53\uFF57\uFF4F\uFF52\uFF44",
                "FullWidthPw7", "FullWidthPw7", null);
        config(s, "soft hyphen inside password", "spark.myapp.pass\u00ADword", "SoftHyphenPw6", "SoftHyphenPw6",
                null);
        config(s, "GitHub token inside a note", "spark.myapp.note", "see " + GHP + " for access", GHP,
                "see " + R + " for access");
        config(s, "Slack bot token", "spark.myapp.slack", "xoxb-2048-4096-aBcDeFgHiJkLmNoP",
                "xoxb-2048-4096-aBcDeFgHiJkLmNoP", null);
        s.add(new Shape("AWS access key id with its secret beside it", Field.CONFIG, "spark.myapp.s3",
                AWS_ID_CONFIG + " " + BESIDE_ID, List.of(AWS_ID_CONFIG, BESIDE_ID), R + " " + R));
        config(s, "Google API key", "spark.myapp.maps", "key " + GOOGLE_CONFIG, GOOGLE_CONFIG, "key " + R);
        config(s, "Stripe live key", "spark.myapp.billing", "sk_live_51HqLyjWDarjtT1zdp7dcXyZ",
                "sk_live_51HqLyjWDarjtT1zdp7dcXyZ", null);
        config(s, "JSON web token", "spark.myapp.session",
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib2IifQ.SflKxwRJSMeKKF2QT4fwpM",
                "SflKxwRJSMeKKF2QT4fwpM", null);
        config(s, "PEM private key", "spark.myapp.tls",
                "-----BEGIN RSA PRIVATE KEY-----\n" + PEM_BODY + "\n-----END RSA PRIVATE KEY-----", PEM_BODY, null);
        config(s, "Azure storage connection string", "spark.myapp.blob", "DefaultEndpointsProtocol=https;"
                        + "AccountName=acct;AccountKey=" + AZURE_KEY_CONFIG + ";EndpointSuffix=core.windows.net",
                AZURE_KEY_CONFIG, "AccountName=acct;AccountKey=" + R + ";EndpointSuffix=core.windows.net");
        config(s, "Azure SAS signature", "spark.myapp.sas",
                "https://acct.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig=SaSig7Xq%2BAbC%3D", "SaSig7Xq",
                "&sp=r&sig=" + R);
        config(s, "GitLab token", "spark.myapp.gitlab", "glpat-Gl4bTok3nAbCdEfGhIjK", "glpat-Gl4bTok3nAbCdEfGhIjK",
                null);
        config(s, "Hugging Face token", "spark.myapp.hf", "hf_HuggingF4ceT0kenAbCdEfGhIjKlMnOpQ",
                "hf_HuggingF4ceT0kenAbCdEfGhIjKlMnOpQ", null);
        config(s, "OpenAI key", "spark.myapp.llm", "sk-proj-OpenA1KeyAbCdEfGhIjKlMnOpQrStUvWxYz0123",
                "OpenA1KeyAbCdEfGhIjKlMnOpQrStUvWxYz0123", null);
        config(s, "GitHub fine-grained token", "spark.myapp.gh", GITHUB_PAT, GITHUB_PAT, null);
        config(s, "Slack webhook", "spark.myapp.alerts",
                "https://hooks.slack.com/services/T0AAAA1/B0BBBB2/WebHookPath9xYz0123", "WebHookPath9xYz0123",
                "https://hooks.slack.com/services/" + R);
        s.add(new Shape("application name with a credential word", Field.CONFIG, "spark.app.name", APP_NAME,
                List.of(), APP_NAME));
        config(s, "author is not auth", "spark.myapp.author", "alice-the-author", null, "alice-the-author");

        // plan text (and the same line as a plan node)
        text(s, "URL-encoded password in a plan", Field.PLAN,
                "Scan JDBCRelation(users) [url=jdbc:postgresql://db/x?user%3Dapp%26password%3DEncPw5q%26ssl%3Dtrue]",
                "EncPw5q", "password%3D" + R + "%26ssl%3Dtrue");
        text(s, "percent-encoded first letter", Field.PLAN, "Options: Map(%70assword=EncPw4x, fetchsize=100)",
                "EncPw4x", "%70assword=" + R + ", fetchsize=100");
        text(s, "encoded zero-width space inside password", Field.PLAN,
                "Location: s3a://bucket/x?pass%E2%80%8Bword=EncZw2z", "EncZw2z", "pass%E2%80%8Bword=" + R);
        text(s, "twice-encoded pair", Field.PLAN, "Relation [password%253DDblEnc1w]", "DblEnc1w",
                "password%253D" + R + "]");
        text(s, "Databricks token in a plan", Field.PLAN, "Scan ExistingRDD via " + DAPI_PLAN, DAPI_PLAN,
                "Scan ExistingRDD via " + R);
        text(s, "password in a plan's option map", Field.PLAN, "Map(sfPassword -> PlanPw3y, sfUser -> svc)",
                "PlanPw3y", "sfPassword -> " + R + ", sfUser -> svc");

        // failed tasks' errors
        text(s, "password and a space in a task error", Field.TASK_ERROR,
                "java.lang.RuntimeException: login failed, password Hunter2", "Hunter2", "login failed, password " + R);
        text(s, "token and a colon in a task error", Field.TASK_ERROR,
                "java.io.IOException: refresh failed, token: abc123tok", "abc123tok", "refresh failed, token: " + R);
        text(s, "bearer token in a task error", Field.TASK_ERROR,
                "java.io.IOException: HTTP 401 for Authorization: Bearer ya29.a0AfH6SMBTaskTok3n0123456789",
                "ya29.a0AfH6SMBTaskTok3n0123456789", "Authorization: Bearer " + R);
        text(s, "AWS access key id in a task error", Field.TASK_ERROR,
                "com.amazonaws.services.s3.model.AmazonS3Exception: Access Denied for " + AWS_ID_TASK, AWS_ID_TASK,
                "Access Denied for " + R);
        text(s, "secret and a colon in a task error", Field.TASK_ERROR,
                "java.lang.IllegalStateException: vault error, secret: s3cr3t!Task", "s3cr3t!Task",
                "vault error, secret: " + R);
        text(s, "zero-width space inside password in a task error", Field.TASK_ERROR,
                "java.sql.SQLException: pass\u200Bword=TaskZw1pw rejected", "TaskZw1pw",
                "pass\u200Bword=" + R + " rejected");

        // streaming query errors
        text(s, "password and a space in a streaming error", Field.STREAMING_ERROR,
                "org.apache.spark.sql.streaming.StreamingQueryException: sink rejected password Hunter3x",
                "Hunter3x", "sink rejected password " + R);
        text(s, "Kafka JAAS password in a streaming error", Field.STREAMING_ERROR,
                "StreamingQueryException: cannot create consumer with sasl.jaas.config=org.apache.kafka.common"
                        + ".security.plain.PlainLoginModule required username=\"svc\" password=\"JaasPw6q\";",
                "JaasPw6q", "username=\"svc\" password=\"" + R + "\";");
        text(s, "GitHub app token in a streaming error", Field.STREAMING_ERROR,
                "StreamingQueryException: clone failed with " + GHS, GHS, "clone failed with " + R);
        text(s, "AccountKey in a streaming error", Field.STREAMING_ERROR,
                "StreamingQueryException: bad connection string AccountKey=" + AZURE_KEY_STREAMING
                        + ";EndpointSuffix=core.windows.net", AZURE_KEY_STREAMING,
                "AccountKey=" + R + ";EndpointSuffix=core.windows.net");
        text(s, "AWS secret key alone in a streaming error", Field.STREAMING_ERROR,
                "StreamingQueryException: signature mismatch for " + AWS_SECRET_STREAMING, AWS_SECRET_STREAMING,
                "signature mismatch for " + R);

        // job descriptions and groups, SQL descriptions: free text
        text(s, "job description that names the app", Field.JOB_DESCRIPTION, "nightly export for secret-app", null,
                "nightly export for secret-app");
        text(s, "job group with a credential word", Field.JOB_GROUP, "secret-project group", null,
                "secret-project group");
        text(s, "Google key in a job description", Field.JOB_DESCRIPTION, "export with api key " + GOOGLE_JOB,
                GOOGLE_JOB, "export with api key " + R);
        s.add(new Shape("access key id and secret in a URL", Field.JOB_DESCRIPTION, null,
                "copy to s3a://" + AWS_ID_JOB + ":" + AWS_SECRET_JOB + "@bucket/x",
                List.of(AWS_ID_JOB, AWS_SECRET_JOB), "copy to s3a://" + R + ":" + R + "@bucket/x"));
        text(s, "auth in a SQL filter", Field.SQL_DESCRIPTION, "SELECT * FROM t WHERE auth = 'SqlAuth7q'",
                "SqlAuth7q", "auth = '" + R + "'");
        text(s, "token pair in a job group", Field.JOB_GROUP, "token=GroupTok5q", "GroupTok5q", "token=" + R);
        text(s, "credential words as SQL columns", Field.SQL_DESCRIPTION, "SELECT password, token FROM users",
                null, "SELECT password, token FROM users");
        text(s, "token as a plain word in a description", Field.JOB_DESCRIPTION, "token refresher batch", null,
                "token refresher batch");
        return List.copyOf(s);
    }

    private static void config(List<Shape> s, String name, String key, String value, String vanish, String stay) {
        s.add(new Shape(name, Field.CONFIG, key, value, vanish == null ? List.of() : List.of(vanish),
                stay == null ? key : stay));
    }

    private static void text(List<Shape> s, String name, Field field, String text, String vanish, String stay) {
        s.add(new Shape(name, field, null, text, vanish == null ? List.of() : List.of(vanish), stay));
    }

    static List<Shape> of(Field field) {
        return ALL.stream().filter(x -> x.field() == field).toList();
    }

    /** The shapes' credentials found in {@code text}, as "shape: credential". */
    static List<String> leaks(String text) {
        List<String> found = new ArrayList<>();
        for (Shape s : ALL) {
            for (String v : s.vanish()) {
                if (text.contains(v)) {
                    found.add(s.name() + ": " + v);
                }
            }
        }
        return found;
    }

    // ---- the event log -------------------------------------------------------------------------------------------

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Writes the event log into {@code dir} (its own file, named after the application) and returns it. */
    static Path writeEventLog(Path dir) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(obj("Event", "SparkListenerLogStart", "Spark Version", "3.5.1").toString());
        lines.add(obj("Event", "SparkListenerApplicationStart", "App Name", APP_NAME, "App ID", APP_ID,
                "Timestamp", 1_000L, "User", "alice").toString());
        ObjectNode env = obj("Event", "SparkListenerEnvironmentUpdate");
        env.set("JVM Information", obj("Java Version", "17"));
        ObjectNode spark = obj("spark.master", "local[2]", "spark.executor.memory", "4g");
        for (Shape s : of(Field.CONFIG)) {
            spark.put(s.key(), s.text());
        }
        env.set("Spark Properties", spark);
        env.set("System Properties", obj("user.dir", "/home/alice"));
        env.set("Hadoop Properties", obj("fs.defaultFS", "file:///"));
        lines.add(env.toString());
        ObjectNode added = obj("Event", "SparkListenerExecutorAdded", "Timestamp", 1_100L, "Executor ID", "1");
        added.set("Executor Info", obj("Host", "h1", "Total Cores", 2));
        lines.add(added.toString());

        // one SQL execution whose plan text has every plan shape on its own line, each also a node of its tree
        long t = 1_150;
        int executionId = 0;
        StringBuilder plan = new StringBuilder("== Physical Plan ==\n");
        ArrayNode leaves = JSON.createArrayNode();
        for (Shape s : of(Field.PLAN)) {
            plan.append("+- ").append(s.text()).append('\n');
            ObjectNode leaf = obj("nodeName", "Scan", "simpleString", s.text());
            leaf.set("children", JSON.createArrayNode());
            leaf.set("metrics", JSON.createArrayNode());
            leaves.add(leaf);
        }
        lines.add(sqlStart(executionId++, "plan shapes", plan.toString(), leaves, t));
        for (Shape s : of(Field.SQL_DESCRIPTION)) {
            lines.add(sqlStart(executionId++, s.text(), "== Physical Plan ==\nLocalTableScan\n",
                    JSON.createArrayNode(), t));
        }

        // job 0 runs stage 0, whose tasks fail with the task shapes' errors
        List<Shape> taskShapes = of(Field.TASK_ERROR);
        int tasks = taskShapes.size() + 1;
        ObjectNode jobStart = obj("Event", "SparkListenerJobStart", "Job ID", 0, "Submission Time", 1_200L);
        jobStart.set("Stage Infos", JSON.createArrayNode().add(stageInfo(tasks, -1)));
        jobStart.set("Stage IDs", JSON.createArrayNode().add(0));
        jobStart.set("Properties", obj("spark.job.description", "load users"));
        lines.add(jobStart.toString());
        ObjectNode submitted = obj("Event", "SparkListenerStageSubmitted");
        submitted.set("Stage Info", stageInfo(tasks, -1));
        lines.add(submitted.toString());
        for (int i = 0; i < tasks; i++) {
            ObjectNode start = obj("Event", "SparkListenerTaskStart", "Stage ID", 0, "Stage Attempt ID", 0);
            start.set("Task Info", taskInfo(i, 0, false));
            lines.add(start.toString());
        }
        for (int i = 0; i < tasks; i++) {
            ObjectNode reason;
            if (i < taskShapes.size()) {
                reason = obj("Reason", "ExceptionFailure", "Class Name", "java.lang.RuntimeException",
                        "Description", taskShapes.get(i).text(), "Full Stack Trace", taskShapes.get(i).text()
                                + "\n\tat org.example.Load.run(Load.java:12)");
                reason.set("Stack Trace", JSON.createArrayNode());
                reason.set("Accumulator Updates", JSON.createArrayNode());
            } else {
                reason = obj("Reason", "Success");
            }
            ObjectNode end = obj("Event", "SparkListenerTaskEnd", "Stage ID", 0, "Stage Attempt ID", 0,
                    "Task Type", "ResultTask");
            end.set("Task End Reason", reason);
            end.set("Task Info", taskInfo(i, 1_300L + 10L * i, i < taskShapes.size()));
            end.set("Task Metrics", obj("Executor Deserialize Time", 1, "Executor Run Time", 50, "JVM GC Time", 2,
                    "Result Size", 10));
            lines.add(end.toString());
        }
        ObjectNode completed = obj("Event", "SparkListenerStageCompleted");
        completed.set("Stage Info", stageInfo(tasks, 1_900L));
        lines.add(completed.toString());
        lines.add(obj("Event", "SparkListenerJobEnd", "Job ID", 0, "Completion Time", 1_950L)
                .set("Job Result", obj("Result", "JobSucceeded")).toString());

        // one job for each description and group shape
        int jobId = 1;
        List<Shape> jobShapes = new ArrayList<>(of(Field.JOB_DESCRIPTION));
        jobShapes.addAll(of(Field.JOB_GROUP));
        for (Shape s : jobShapes) {
            ObjectNode start = obj("Event", "SparkListenerJobStart", "Job ID", jobId, "Submission Time", 1_960L);
            start.set("Stage Infos", JSON.createArrayNode());
            start.set("Stage IDs", JSON.createArrayNode());
            start.set("Properties", s.field() == Field.JOB_GROUP ? obj("spark.jobGroup.id", s.text())
                    : obj("spark.job.description", s.text()));
            lines.add(start.toString());
            lines.add(obj("Event", "SparkListenerJobEnd", "Job ID", jobId, "Completion Time", 1_970L)
                    .set("Job Result", obj("Result", "JobSucceeded")).toString());
            jobId++;
        }
        for (int i = 0; i < executionId; i++) {
            lines.add(obj("Event", "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd", "executionId", i,
                    "time", 1_975L).toString());
        }

        // one streaming query for each streaming shape, failed with its error
        int q = 0;
        for (Shape s : of(Field.STREAMING_ERROR)) {
            lines.add(obj("Event", "org.apache.spark.sql.streaming.StreamingQueryListener$QueryStartedEvent",
                    "id", queryId(q), "runId", "run-" + q, "name", "query" + q,
                    "timestamp", "1970-01-01T00:00:01.980Z").toString());
            lines.add(obj("Event", "org.apache.spark.sql.streaming.StreamingQueryListener$QueryTerminatedEvent",
                    "id", queryId(q), "runId", "run-" + q, "exception", s.text()).toString());
            q++;
        }
        lines.add(obj("Event", "SparkListenerApplicationEnd", "Timestamp", 2_000L).toString());
        Path file = dir.resolve(APP_ID);
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file;
    }

    static String queryId(int i) {
        return "00000000-0000-0000-0000-00000000000" + i;
    }

    static int sqlExecutions() {
        return 1 + of(Field.SQL_DESCRIPTION).size();
    }

    static int jobs() {
        return 1 + of(Field.JOB_DESCRIPTION).size() + of(Field.JOB_GROUP).size();
    }

    private static String sqlStart(int id, String description, String plan, ArrayNode leaves, long time) {
        ObjectNode e = obj("Event", "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart",
                "executionId", id, "description", description, "details", "", "physicalPlanDescription", plan,
                "time", time);
        ObjectNode root = obj("nodeName", "WholeStageCodegen (1)", "simpleString", "WholeStageCodegen (1)");
        root.set("children", leaves);
        root.set("metrics", JSON.createArrayNode());
        e.set("sparkPlanInfo", root);
        return e.toString();
    }

    private static ObjectNode stageInfo(int tasks, long completion) {
        ObjectNode n = obj("Stage ID", 0, "Stage Attempt ID", 0, "Stage Name", "load at Load.scala:12",
                "Number of Tasks", tasks, "Details", "org.example.Load.main(Load.scala:12)", "Submission Time", 1_210L,
                "Parent IDs", List.of(), "RDD Info", List.of(), "Accumulables", List.of());
        if (completion > 0) {
            n.put("Completion Time", completion);
        }
        return n;
    }

    private static ObjectNode taskInfo(int index, long finish, boolean failed) {
        return obj("Task ID", index, "Index", index, "Attempt", 0, "Partition ID", index, "Launch Time", 1_220L,
                "Executor ID", "1", "Host", "h1", "Locality", "PROCESS_LOCAL", "Speculative", false,
                "Getting Result Time", 0, "Finish Time", finish, "Failed", failed, "Killed", false,
                "Accumulables", List.of());
    }

    /** A JSON object of name, value, name, value, …; values are strings, numbers, booleans, lists or nodes. */
    private static ObjectNode obj(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return JSON.valueToTree(m);
    }
}
