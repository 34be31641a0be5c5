package io.sparkscope.core.redact;

import io.sparkscope.core.event.SparkEvent.PlanNode;
import io.sparkscope.core.event.StreamingProgress;
import io.sparkscope.core.model.AppConfig;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.RunTotals;
import io.sparkscope.core.model.ExecutorSummary;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.TaskRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * Applies a {@link Redactor} to every text of a snapshot that can carry a credential: the four configuration maps,
 * the application name, job names, descriptions, groups, tags, kill reasons and failure reasons, stage names, details
 * and failure reasons, kept tasks' error messages and texts, SQL descriptions, error messages, plan text and plan tree
 * nodes, executor remove reasons, streaming query names, errors and sink and source descriptions. Identifiers
 * (application, executor and host names, statuses, end-reason kinds) are left as they
 * are.
 *
 * <p>Every snapshot source ends here (the recorder, the History Server's REST API, the spool), so what is stored,
 * spooled, shown or printed is redacted, and redacting twice changes nothing.
 *
 * <p>Cost: a live application is snapshotted every few seconds, and most of a snapshot is the same objects as the
 * last one (completed stages' summaries, plan trees, error strings). Each distinct object is redacted once and the
 * result remembered by identity ({@link IdentityMemo}); a record without a secret is returned as it is, so an
 * unchanged snapshot costs a lookup per stage, SQL execution and string.
 */
public final class SnapshotRedactor {
    private static final Map<Redactor, SnapshotRedactor> BY_REDACTOR = new ConcurrentHashMap<>();

    private final Redactor redactor;
    private final IdentityMemo memo = new IdentityMemo(500_000);

    private SnapshotRedactor(Redactor redactor) {
        this.redactor = redactor;
    }

    /** The snapshot with its application's own redaction settings (read from its Spark properties) applied. */
    public static AppSnapshot redact(AppSnapshot snapshot) {
        if (snapshot == null) {
            return null;
        }
        return of(Redactor.forSparkProperties(snapshot.config().sparkProperties())).apply(snapshot);
    }

    public static SnapshotRedactor of(Redactor redactor) {
        SnapshotRedactor r = BY_REDACTOR.get(redactor);
        if (r == null) {
            if (BY_REDACTOR.size() > 256) {
                BY_REDACTOR.clear();
            }
            r = BY_REDACTOR.computeIfAbsent(redactor, SnapshotRedactor::new);
        }
        return r;
    }

    /** A redactor that remembers nothing yet (to measure a first redaction). */
    static SnapshotRedactor withoutMemory(Redactor redactor) {
        return new SnapshotRedactor(redactor);
    }

    public AppSnapshot apply(AppSnapshot s) {
        AppConfig config = memo.apply(s.config(), this::config);
        String appName = text(s.appName());
        List<ExecutorSummary> executors = each(s.executors(), this::executor);
        // Whole records through the memo, not field by field: a driver that keeps a window of a thousand jobs and SQL
        // executions snapshots them every few seconds, and a lookup per string of each (several per record) was the
        // larger part of the recorder thread's redaction time. An unchanged job or execution is the same object
        // snapshot after snapshot, so one lookup answers for all its texts.
        List<JobSummary> jobs = each(s.jobs(), j -> memo.apply(j, this::job));
        List<StageSummary> stages = each(s.stages(), st -> memo.apply(st, this::stage));
        List<SqlExecutionSummary> sql = each(s.sqlExecutions(), q -> memo.apply(q, this::sql));
        List<StreamingQuerySummary> streaming = each(s.streamingQueries(), this::streamingQuery);
        RunTotals totals = totals(s.totals());
        if (config == s.config() && appName == s.appName() && executors == s.executors() && jobs == s.jobs()
                && stages == s.stages() && sql == s.sqlExecutions() && streaming == s.streamingQueries()
                && totals == s.totals()) {
            return s;
        }
        return RecordCopy.with(s, "config", config, "appName", appName, "executors", executors, "jobs", jobs,
                "stages", stages, "sqlExecutions", sql, "streamingQueries", streaming, "totals", totals);
    }

    /**
     * A query's name, its error and its sink and sources' descriptions (paths and URLs with credentials, Kafka
     * options) may hold a secret; offsets and numbers do not. Batches are mostly the same objects snapshot after
     * snapshot, so each goes through the memo.
     */
    private StreamingQuerySummary streamingQuery(StreamingQuerySummary q) {
        String name = text(q.name());
        String exception = text(q.exception());
        String sink = text(q.sinkDescription());
        List<StreamingBatch> batches = each(q.recentBatches(), b -> memo.apply(b, this::batch));
        if (name == q.name() && exception == q.exception() && sink == q.sinkDescription()
                && batches == q.recentBatches()) {
            return q;
        }
        return RecordCopy.with(q, "name", name, "exception", exception, "sinkDescription", sink,
                "recentBatches", batches);
    }

    private StreamingBatch batch(StreamingBatch b) {
        List<StreamingProgress.Source> sources = each(b.sources(), src -> {
            String d = text(src.description());
            return d == src.description() ? src : RecordCopy.with(src, "description", d);
        });
        return sources == b.sources() ? b : RecordCopy.with(b, "sources", sources);
    }

    /** The run totals' group keys are job groups and SQL descriptions: free text like the jobs' own. */
    private RunTotals totals(RunTotals t) {
        List<RunTotals.GroupTotals> groups = each(t.jobGroups(), this::group);
        List<RunTotals.GroupTotals> descriptions = each(t.sqlDescriptions(), this::group);
        if (groups == t.jobGroups() && descriptions == t.sqlDescriptions()) {
            return t;
        }
        return RecordCopy.with(t, "jobGroups", groups, "sqlDescriptions", descriptions);
    }

    private RunTotals.GroupTotals group(RunTotals.GroupTotals g) {
        String key = text(g.key());
        return key == g.key() ? g : RecordCopy.with(g, "key", key);
    }

    /** Free text through the memo. */
    String text(String t) {
        if (t == null || t.length() < 4) {
            return t;
        }
        return memo.apply(t, redactor::redactText);
    }

    private AppConfig config(AppConfig c) {
        Map<String, String> spark = map(c.sparkProperties());
        Map<String, String> jvm = map(c.jvmInformation());
        Map<String, String> system = map(c.systemProperties());
        Map<String, String> hadoop = map(c.hadoopProperties());
        if (spark == c.sparkProperties() && jvm == c.jvmInformation() && system == c.systemProperties()
                && hadoop == c.hadoopProperties()) {
            return c;
        }
        return new AppConfig(spark, jvm, system, hadoop);
    }

    /** The same map when no value changes. */
    private Map<String, String> map(Map<String, String> props) {
        Map<String, String> out = null;
        for (Map.Entry<String, String> e : props.entrySet()) {
            String v = e.getValue();
            String r = redactor.redactValue(e.getKey(), v);
            if (r != v && out == null) {
                out = new java.util.LinkedHashMap<>(props);
            }
            if (out != null) {
                out.put(e.getKey(), r);
            }
        }
        return out == null ? props : out;
    }

    private ExecutorSummary executor(ExecutorSummary e) {
        String reason = text(e.removeReason());
        return reason == e.removeReason() ? e : RecordCopy.with(e, "removeReason", reason);
    }

    private JobSummary job(JobSummary j) {
        String name = text(j.name());
        String description = text(j.description());
        String group = text(j.jobGroup());
        String failure = text(j.failureReason());
        List<String> tags = each(j.jobTags(), this::text);
        Map<String, Integer> killed = j.killedTasksSummary();
        for (String reason : killed.keySet()) {
            if (text(reason) != reason) {
                Map<String, Integer> redacted = new java.util.TreeMap<>();
                killed.forEach((k, v) -> redacted.merge(text(k), v, Integer::sum));
                killed = redacted;
                break;
            }
        }
        if (name == j.name() && description == j.description() && group == j.jobGroup()
                && failure == j.failureReason() && tags == j.jobTags() && killed == j.killedTasksSummary()) {
            return j;
        }
        return RecordCopy.with(j, "name", name, "description", description, "jobGroup", group,
                "failureReason", failure, "jobTags", tags, "killedTasksSummary", killed);
    }

    private StageSummary stage(StageSummary st) {
        String name = text(st.name());
        String details = text(st.details());
        String failure = text(st.failureReason());
        List<TaskRecord> tasks = each(st.keptTasks(), this::task);
        if (name == st.name() && details == st.details() && failure == st.failureReason() && tasks == st.keptTasks()) {
            return st;
        }
        return RecordCopy.with(st, "name", name, "details", details, "failureReason", failure, "keptTasks", tasks);
    }

    private TaskRecord task(TaskRecord t) {
        if (t.errorMessage() == null) {
            return t; // successful tasks: nothing to look at
        }
        String message = text(t.errorMessage());
        String detail = text(t.errorDetail());
        return message == t.errorMessage() && detail == t.errorDetail() ? t
                : RecordCopy.with(t, "errorMessage", message, "errorDetail", detail);
    }

    private SqlExecutionSummary sql(SqlExecutionSummary q) {
        String description = text(q.description());
        String error = text(q.errorMessage());
        String plan = text(q.physicalPlanDescription());
        PlanNode tree = q.plan() == null ? null : memo.apply(q.plan(), this::planNode);
        if (description == q.description() && error == q.errorMessage() && plan == q.physicalPlanDescription()
                && tree == q.plan()) {
            return q;
        }
        return RecordCopy.with(q, "description", description, "errorMessage", error,
                "physicalPlanDescription", plan, "plan", tree);
    }

    private PlanNode planNode(PlanNode n) {
        String name = text(n.nodeName());
        String simple = text(n.simpleString());
        List<PlanNode> children = each(n.children(), this::planNode);
        if (name == n.nodeName() && simple == n.simpleString() && children == n.children()) {
            return n;
        }
        return RecordCopy.with(n, "nodeName", name, "simpleString", simple, "children", children);
    }

    /** The same list when no element changes (most snapshots), else a copy with the changed ones. */
    private static <T> List<T> each(List<T> in, UnaryOperator<T> f) {
        List<T> out = null;
        for (int i = 0, n = in.size(); i < n; i++) {
            T x = in.get(i);
            T y = f.apply(x);
            if (y != x && out == null) {
                out = new ArrayList<>(in.subList(0, i));
            }
            if (out != null) {
                out.add(y);
            }
        }
        return out == null ? in : out;
    }
}
