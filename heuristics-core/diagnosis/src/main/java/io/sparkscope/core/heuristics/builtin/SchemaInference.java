package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.DetailLabel;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.text.Units;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CSV or JSON read without a schema: before the query runs, Spark reads the whole input once in a job of its own
 * (named after the read call, "csv at …", "json at …", "load at …", outside any SQL execution) only to infer the
 * columns' types, then reads it again for the query. Giving the schema skips that job.
 */
public final class SchemaInference implements Heuristic {
    public static final String ID = "SchemaInference";
    private static final Pattern READ_CALL = Pattern.compile("^(csv|json|load) at .*");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        List<Threshold> own = List.of(
                new Threshold("minJobMs", "250",
                        "inference jobs shorter than this (ms) are not reported"),
                new Threshold("minInputShare", "0.5",
                        "the job read at least this share of what the later scan read (and at most its inverse"
                                + " times as much): the whole input, not a header line"));
        return java.util.stream.Stream.concat(own.stream(), FileScans.highThresholds().stream()).toList();
    }

    @Override
    public Map<String, DetailLabel> detailLabels() {
        return Map.of(
                "inferenceJobId", new DetailLabel("Schema inference job", DetailLabel.Unit.TEXT),
                "inferenceInputBytes", new DetailLabel("Input read to infer the schema", DetailLabel.Unit.BYTES));
    }

    @Override
    public String description() {
        return """
                a job named after a read call (`csv at …`, `json at …`, `load at …`), outside any SQL execution, that
                only read input (no shuffle, no output) of ≥ `minInputShare` 50 % (and ≤ 2×) the size a later CSV or
                JSON scan of a SQL execution read: Spark read the whole input once only to infer its schema. LOW
                from `minJobMs` 250 ms, HIGH from `appShare.high` 30 % of the application and `highMinMs` 1 min.
                Impact: that job's wall and task time. Advice at the read: give the schema (`.schema(...)`), or for
                JSON (and CSV) a `samplingRatio` so fewer rows are parsed.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long minJobMs = cfg.count(ID + ".minJobMs");
        double minShare = Math.max(0.01, cfg.threshold(ID + ".minInputShare"));
        long appMs = app.durationMs();
        Map<Integer, StageSummary> byId = FileScans.stagesById(app);
        List<FileScans.Scan> scans = FileScans.scans(app);

        List<Finding> out = new ArrayList<>();
        for (JobSummary job : app.jobs()) {
            Matcher call = READ_CALL.matcher(job.name() == null ? "" : job.name());
            // The header line of a CSV is read by a SQL execution of its own (a limit 1): inference runs outside one.
            if (!call.matches() || job.sqlExecutionId() >= 0) {
                continue;
            }
            List<StageSummary> stages = FileScans.stages(byId, job.stageIds());
            long input = 0;
            boolean readOnly = !stages.isEmpty();
            for (StageSummary s : stages) {
                if (s.totals() == null) {
                    readOnly = false;
                    break;
                }
                input += s.totals().get(TaskMetric.INPUT_BYTES);
                readOnly &= s.totals().get(TaskMetric.SHUFFLE_BYTES_WRITTEN) == 0
                        && s.totals().get(TaskMetric.OUTPUT_BYTES) == 0;
            }
            long jobMs = job.durationMs();
            if (!readOnly || input <= 0 || jobMs < minJobMs) {
                continue;
            }
            String verb = call.group(1);
            FileScans.Scan later = laterScan(job, verb, input, minShare, scans, byId);
            if (later == null) {
                continue;
            }
            long taskMs = FileScans.taskMs(stages);
            Severity severity = FileScans.severity(cfg, ID, jobMs, appMs);
            String format = later.format().toUpperCase(Locale.ROOT);
            boolean json = later.format().equals("json");
            Finding.Builder f = Finding.builder(ID, severity)
                    .location("job" + job.jobId())
                    .title("Schema inferred from the whole " + format + " input (job " + job.jobId() + ")")
                    .message("Job " + job.jobId() + " '" + job.name() + "' read " + Units.bytes(input) + " of "
                            + format + " (" + later.input() + ") in " + Units.duration(jobMs) + " only to infer its"
                            + " schema, before SQL execution " + later.sql().executionId() + " read the same files"
                            + " again for the query. Spark does this whenever a " + format + " read has no schema"
                            + (json ? "" : " and inferSchema is on") + ".")
                    .recommendation("Give the schema at the read (" + call.group(0).replaceFirst("^" + verb + " at ",
                            "at ") + "): spark.read().schema(\"name STRING, amount DOUBLE, ...\")." + verb + "(path)"
                            + " with the file's columns and types, or a StructType kept with the code"
                            + (later.readSchema().isEmpty() ? "" : " (the query read " + later.readSchema() + ")")
                            + "; Spark then skips the inference job. "
                            + (json ? "If the schema cannot be fixed in code, option(\"samplingRatio\", \"0.1\") infers"
                            + " it from a tenth of the rows (the files are still read, but fewer rows parsed)."
                            : "Without inferSchema every column is read as a string; option(\"samplingRatio\","
                            + " \"0.1\") infers the types from a tenth of the rows if the schema cannot be given."))
                    .stages(FileScans.keys(stages))
                    .impact(jobMs, taskMs, "wall and task time of inference job " + job.jobId())
                    .detail("inferenceJobId", job.jobId())
                    .detail("inferenceInputBytes", input)
                    .detail("format", later.format())
                    .detail("input", later.input())
                    .detail("jobMs", jobMs)
                    .detail("taskMs", taskMs)
                    .detail("laterSqlExecutionId", later.sql().executionId())
                    .planNode(later.sql().executionId(), later.node().id(), later.node().name().trim());
            out.add(f.build());
        }
        out.sort(Comparator.comparingLong((Finding x) -> x.impact().wallMs()).reversed());
        return out;
    }

    /**
     * The first scan after the job, of the format the read call inferred, that read about as much as the job did:
     * the query that read the same files for real. Null when there is none (the job was something else).
     */
    private static FileScans.Scan laterScan(JobSummary job, String verb, long input, double minShare,
                                            List<FileScans.Scan> scans, Map<Integer, StageSummary> byId) {
        FileScans.Scan best = null;
        for (FileScans.Scan s : scans) {
            boolean format = verb.equals("load") ? s.format().equals("csv") || s.format().equals("json")
                    : s.format().equals(verb);
            if (!format || s.sql().startTime() < job.submissionTime()) {
                continue;
            }
            long read = s.metric("size of files read");
            if (read <= 0) {
                read = 0;
                for (StageSummary st : FileScans.stages(byId, s.stageIds())) {
                    read += st.totals() == null ? 0 : st.totals().get(TaskMetric.INPUT_BYTES);
                }
            }
            if (read <= 0 || input < minShare * read || input * minShare > read) {
                continue;
            }
            if (best == null || s.sql().startTime() < best.sql().startTime()) {
                best = s;
            }
        }
        return best;
    }
}
