package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.core.sql.SqlPlans;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The file reads and writes of an application's SQL plans, read from the plan text Spark gives each scan node
 * ({@code FileScan parquet [a#1,b#2] Batched: true, DataFilters: [...], Format: Parquet, Location:
 * InMemoryFileIndex(1 paths)[file:/data/t], PartitionFilters: [], ...}, redacted as stored) and from the SQL metrics
 * of those nodes ("number of files read", "size of files read", "number of written files"...). Shared by the
 * heuristics about reading input, so they name an input the same way.
 */
final class FileScans {
    private FileScans() {
    }

    /** Spark prints a scan's metadata as "Key: value" pairs joined by ", ", keys sorted; a value ends at the next key. */
    private static final String NEXT_KEY = "(?=, [A-Z][A-Za-z]*: |$)";
    private static final Pattern LOCATION = Pattern.compile("Location: (.*?)" + NEXT_KEY);
    private static final Pattern PARTITION_FILTERS = Pattern.compile("PartitionFilters: \\[(.*?)]" + NEXT_KEY);
    private static final Pattern DATA_FILTERS = Pattern.compile("DataFilters: \\[(.*?)]" + NEXT_KEY);
    private static final Pattern READ_SCHEMA = Pattern.compile("ReadSchema: (.*?)" + NEXT_KEY);
    // "InMemoryFileIndex(2 paths)[file:/a, file:/b]" → "file:/a, file:/b"; Spark may have cut the list short ("...")
    private static final Pattern PATHS = Pattern.compile("\\w+(?:\\(\\d+ paths?\\))?\\[(.*?)]?");
    private static final Pattern OUTPUT = Pattern.compile("\\[([^\\]]*)]\\s+(?:Batched|[A-Z][A-Za-z]*Scan)");

    /**
     * One scan node of a file source.
     *
     * @param format           the source's format as the node names it (parquet, csv, json, text, orc...)
     * @param table            the catalog table the node names ("spark_catalog.db.t"), or "" for a path read
     * @param location         the file index Spark printed, e.g. "InMemoryFileIndex(1 paths)[file:/data/t]" (cut
     *                         where Spark cut it), or "" when the node has none
     * @param partitionFilters the partition filters as printed, "" for none
     * @param dataFilters      the data filters as printed, "" for none
     * @param partitionColumns output columns the read schema does not hold: the table's partition columns
     */
    record Scan(SqlPlans.Plan plan, PlanGraph.Node node, String format, String table, String location,
                String partitionFilters, String dataFilters, String readSchema, List<String> partitionColumns) {

        SqlExecutionSummary sql() {
            return plan.sql();
        }

        /** What the scan reads, as the user would name it: the table, else the paths of the location. */
        String input() {
            if (!table.isEmpty()) {
                return table;
            }
            Matcher m = PATHS.matcher(location);
            return m.matches() ? m.group(1) : location;
        }

        /** The stages that ran the scan, ascending; empty when none is known (a plan whose jobs never ran). */
        List<Integer> stageIds() {
            return plan.stages().stagesOf(node.id());
        }

        /** The value of this node's metric (see {@link FileScans#metric}), or -1. */
        long metric(String name) {
            return FileScans.metric(plan.sql(), node, name);
        }
    }

    /**
     * One node writing files (an insert into a path or a table): it carries Spark's write statistics.
     *
     * @param target the path or table written, as the node printed it ("" when it printed none)
     */
    record Write(SqlPlans.Plan plan, PlanGraph.Node node, String target) {
        long metric(String name) {
            return FileScans.metric(plan.sql(), node, name);
        }

        /** The stages that ran the write: the node's own, else those of its execution's jobs. */
        List<Integer> stageIds() {
            List<Integer> own = plan.stages().stagesOf(node.id());
            return own.isEmpty() ? plan.sql().stageIds() : own;
        }
    }

    /** The file scans of every SQL execution with a plan, in execution order. */
    static List<Scan> scans(AppSnapshot app) {
        List<Scan> out = new ArrayList<>();
        for (SqlPlans.Plan p : SqlPlans.of(app).plans()) {
            for (PlanGraph.Node n : p.graph().nodes()) {
                Scan s = parse(p, n);
                if (s != null) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    /** The file writes of every SQL execution with a plan, in execution order. */
    static List<Write> writes(AppSnapshot app) {
        List<Write> out = new ArrayList<>();
        for (SqlPlans.Plan p : SqlPlans.of(app).plans()) {
            for (PlanGraph.Node n : p.graph().nodes()) {
                if (!n.cluster() && declares(n, "number of written files")) {
                    out.add(new Write(p, n, writeTarget(n)));
                }
            }
        }
        return out;
    }

    static Scan parse(SqlPlans.Plan plan, PlanGraph.Node n) {
        String name = n.name().trim();
        String text = n.description();
        boolean scan = name.startsWith("Scan ") || name.startsWith("BatchScan ");
        // Only scans of files (a location) or of a Hive table: not in-memory relations, RDDs or JDBC sources.
        if (!scan || n.cluster() || !(text.contains("Location: ") || name.startsWith("Scan hive "))) {
            return null;
        }
        String[] words = name.split(" ", 3);
        String format = words.length > 1 ? words[1].toLowerCase(Locale.ROOT) : "";
        String rest = words.length > 2 ? words[2].trim() : "";
        String table = rest.contains(":/") || rest.startsWith("/") ? "" : rest;
        String readSchema = group(READ_SCHEMA, text);
        List<String> partitionColumns = new ArrayList<>();
        if (!readSchema.isEmpty()) {
            for (String col : group(OUTPUT, text).split(",")) {
                String c = col.trim().replaceAll("#.*$", "");
                if (!c.isEmpty() && !readSchema.contains(c + ":")) {
                    partitionColumns.add(c);
                }
            }
        }
        return new Scan(plan, n, format, table, group(LOCATION, text), group(PARTITION_FILTERS, text),
                group(DATA_FILTERS, text), readSchema, partitionColumns);
    }

    private static String group(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? m.group(1).trim() : "";
    }

    // "Execute InsertIntoHadoopFsRelationCommand file:/out, false, Parquet, ..." → "file:/out"
    private static String writeTarget(PlanGraph.Node n) {
        String text = n.description();
        String name = n.name().trim();
        if (!text.startsWith(name)) {
            return "";
        }
        String rest = text.substring(name.length()).trim();
        int comma = rest.indexOf(", ");
        return comma < 0 ? rest : rest.substring(0, comma);
    }

    private static boolean declares(PlanGraph.Node n, String metric) {
        for (PlanMetric m : n.metrics()) {
            if (m.name() != null && m.name().trim().equalsIgnoreCase(metric)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The value of the node's metric named {@code name} (exactly, ignoring case): the total Spark's SQL tab shows
     * when the snapshot has the aggregates, else the last value reported (a snapshot from the REST API); -1 when
     * the node has no such metric or nothing reported it.
     */
    static long metric(SqlExecutionSummary sql, PlanGraph.Node node, String name) {
        for (PlanMetric m : node.metrics()) {
            if (m.name() == null || !m.name().trim().equalsIgnoreCase(name)) {
                continue;
            }
            SqlMetricAggregate a = sql.metrics().get(m.accumulatorId());
            if (a != null) {
                return a.total();
            }
            Long v = sql.metricValues().get(m.accumulatorId());
            if (v != null) {
                return v;
            }
        }
        return -1;
    }

    /** Whether the node declares a metric of that name (Spark declares some only for partitioned tables). */
    static boolean hasMetric(PlanGraph.Node node, String name) {
        return declares(node, name);
    }

    /** The snapshot's stages by id, the latest attempt of each. */
    static Map<Integer, StageSummary> stagesById(AppSnapshot app) {
        Map<Integer, StageSummary> out = new HashMap<>();
        for (StageSummary s : app.stages()) {
            StageSummary before = out.get(s.stageId());
            if (before == null || s.attemptId() > before.attemptId()) {
                out.put(s.stageId(), s);
            }
        }
        return out;
    }

    /** The stages among {@code ids} that the snapshot has, without repeats, in the order given. */
    static List<StageSummary> stages(Map<Integer, StageSummary> byId, List<Integer> ids) {
        Set<StageSummary> out = new LinkedHashSet<>();
        for (int id : ids) {
            StageSummary s = byId.get(id);
            if (s != null) {
                out.add(s);
            }
        }
        return List.copyOf(out);
    }

    /** Σ task time of the stages. */
    static long taskMs(List<StageSummary> stages) {
        long t = 0;
        for (StageSummary s : stages) {
            t += Facts.stageTaskMs(s);
        }
        return t;
    }

    /** Σ wall time of the stages. */
    static long wallMs(List<StageSummary> stages) {
        long t = 0;
        for (StageSummary s : stages) {
            t += Facts.stageDurationMs(s);
        }
        return t;
    }

    /** The stage ids as a list to read ("2, 4, 6"). */
    static String ids(List<StageSummary> stages) {
        return String.join(", ", stages.stream().map(s -> String.valueOf(s.stageId())).toList());
    }

    /** The two thresholds of the HIGH level these heuristics share (names without the heuristic's id). */
    static List<Threshold> highThresholds() {
        return List.of(
                new Threshold("appShare.high", "0.3",
                        "share of the application's time the saving makes at or above which it is HIGH (with"
                                + " highMinMs); LOW below"),
                new Threshold("highMinMs", "60000",
                        "savings shorter than this (ms) are at most LOW, whatever their share"));
    }

    /** HIGH when the saving is a large share of the application and long too, else LOW: small effects stay LOW. */
    static Severity severity(HeuristicConfig cfg, String id, long savingMs, long appMs) {
        boolean large = appMs > 0 && (double) savingMs / appMs >= cfg.threshold(id + ".appShare.high")
                && savingMs >= cfg.count(id + ".highMinMs");
        return large ? Severity.HIGH : Severity.LOW;
    }

    /** The stage keys ("3.0") of the stages. */
    static List<String> keys(List<StageSummary> stages) {
        return stages.stream().map(StageSummary::key).toList();
    }
}
