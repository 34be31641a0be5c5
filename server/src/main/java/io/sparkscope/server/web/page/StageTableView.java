package io.sparkscope.server.web.page;

import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.store.query.AppHeader;
import io.sparkscope.store.query.SqlQuery;
import io.sparkscope.store.query.StageRow;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The application page's stage table: one short line per stage attempt (a long call site is cut, its full text on
 * hover), input and output beside shuffle and spill, and on demand the task quantiles of every metric of Spark's
 * {@code taskSummary}. The table scrolls inside its own box, so a narrow window never scrolls the page sideways.
 */
final class StageTableView {
    /** Stage-table sort keys (server-side, so the table sorts without JavaScript). */
    enum StageSort { ID, DURATION, TASKS, FAILED, SPILL, SHUFFLE, GC, INPUT, OUTPUT }

    /** Names longer than this are cut: Spark 4 call sites and SQL-generated names run to hundreds of characters. */
    static final int NAME_CHARS = 60;

    enum Unit { MS, NS, BYTES, COUNT }

    /** A metric of Spark's TaskMetricDistributions with the words and unit the table shows it in. */
    record Metric(String path, String label, Unit unit, boolean onlyWhenUsed) {
    }

    /** Every metric of Spark's taskSummary, in Spark's order; push-based shuffle ones only when a task used it. */
    static final List<Metric> METRICS = List.of(
            new Metric("duration", "Task duration", Unit.MS, false),
            new Metric("executorDeserializeTime", "Deserialization", Unit.MS, false),
            new Metric("executorDeserializeCpuTime", "Deserialization CPU", Unit.NS, false),
            new Metric("executorRunTime", "Executor run time", Unit.MS, false),
            new Metric("executorCpuTime", "Executor CPU time", Unit.NS, false),
            new Metric("resultSize", "Result size", Unit.BYTES, false),
            new Metric("jvmGcTime", "GC time", Unit.MS, false),
            new Metric("resultSerializationTime", "Result serialization", Unit.MS, false),
            new Metric("gettingResultTime", "Getting result", Unit.MS, false),
            new Metric("schedulerDelay", "Scheduler delay", Unit.MS, false),
            new Metric("peakExecutionMemory", "Peak execution memory", Unit.BYTES, false),
            new Metric("memoryBytesSpilled", "Spill (memory)", Unit.BYTES, false),
            new Metric("diskBytesSpilled", "Spill (disk)", Unit.BYTES, false),
            new Metric("inputMetrics.bytesRead", "Input", Unit.BYTES, false),
            new Metric("inputMetrics.recordsRead", "Input records", Unit.COUNT, false),
            new Metric("outputMetrics.bytesWritten", "Output", Unit.BYTES, false),
            new Metric("outputMetrics.recordsWritten", "Output records", Unit.COUNT, false),
            new Metric("shuffleReadMetrics.readBytes", "Shuffle read", Unit.BYTES, false),
            new Metric("shuffleReadMetrics.readRecords", "Shuffle read records", Unit.COUNT, false),
            new Metric("shuffleReadMetrics.remoteBlocksFetched", "Remote blocks fetched", Unit.COUNT, false),
            new Metric("shuffleReadMetrics.localBlocksFetched", "Local blocks fetched", Unit.COUNT, false),
            new Metric("shuffleReadMetrics.fetchWaitTime", "Shuffle fetch wait", Unit.MS, false),
            new Metric("shuffleReadMetrics.remoteBytesRead", "Shuffle remote read", Unit.BYTES, false),
            new Metric("shuffleReadMetrics.remoteBytesReadToDisk", "Shuffle remote read to disk", Unit.BYTES, false),
            new Metric("shuffleReadMetrics.totalBlocksFetched", "Blocks fetched", Unit.COUNT, false),
            new Metric("shuffleReadMetrics.remoteReqsDuration", "Remote requests", Unit.MS, false),
            new Metric("shuffleReadMetrics.shufflePushReadMetricsDist.corruptMergedBlockChunks",
                    "Push: corrupt merged chunks", Unit.COUNT, true),
            new Metric("shuffleReadMetrics.shufflePushReadMetricsDist.mergedFetchFallbackCount",
                    "Push: merged fetch fallbacks", Unit.COUNT, true),
            new Metric("shuffleReadMetrics.shufflePushReadMetricsDist.remoteMergedBlocksFetched",
                    "Push: remote merged blocks", Unit.COUNT, true),
            new Metric("shuffleReadMetrics.shufflePushReadMetricsDist.localMergedBlocksFetched",
                    "Push: local merged blocks", Unit.COUNT, true),
            new Metric("shuffleReadMetrics.shufflePushReadMetricsDist.remoteMergedChunksFetched",
                    "Push: remote merged chunks", Unit.COUNT, true),
            new Metric("shuffleReadMetrics.shufflePushReadMetricsDist.localMergedChunksFetched",
                    "Push: local merged chunks", Unit.COUNT, true),
            new Metric("shuffleReadMetrics.shufflePushReadMetricsDist.remoteMergedBytesRead",
                    "Push: remote merged read", Unit.BYTES, true),
            new Metric("shuffleReadMetrics.shufflePushReadMetricsDist.localMergedBytesRead",
                    "Push: local merged read", Unit.BYTES, true),
            new Metric("shuffleReadMetrics.shufflePushReadMetricsDist.remoteMergedReqsDuration",
                    "Push: remote merged requests", Unit.MS, true),
            new Metric("shuffleWriteMetrics.writeBytes", "Shuffle write", Unit.BYTES, false),
            new Metric("shuffleWriteMetrics.writeRecords", "Shuffle write records", Unit.COUNT, false),
            new Metric("shuffleWriteMetrics.writeTime", "Shuffle write time", Unit.NS, false));

    private static final double[] SHOWN_QUANTILES = {0.0, 0.25, 0.5, 0.75, 0.95, 1.0};

    private StageTableView() {
    }

    static void render(Html h, List<StageRow> stages, AppHeader a, StageSort sort, boolean desc) {
        render(h, stages, Map.of(), a, sort, desc);
    }

    /** @param operators stage id → the SQL plan operators it ran, named under the stage's name */
    static void render(Html h, List<StageRow> stages, Map<Integer, List<SqlQuery.StageOperator>> operators,
                       AppHeader a, StageSort sort, boolean desc) {
        render(h, stages, operators, a.appId(), a.attemptId(), sort, desc);
    }

    static void render(Html h, List<StageRow> stages, Map<Integer, List<SqlQuery.StageOperator>> operators,
                       String appId, String attemptId, StageSort sort, boolean desc) {
        List<StageRow> rows = sorted(stages, sort, desc);
        JtestageTableGenerated.render(new PageOutput(h), null, rows, operators, appId, attemptId, sort, desc);
    }

    /** The stages in the table's order: by {@code sort}, descending when asked (ties keep their order). */
    static List<StageRow> sorted(List<StageRow> stages, StageSort sort, boolean desc) {
        List<StageRow> rows = new ArrayList<>(stages);
        Comparator<StageRow> cmp = switch (sort) {
            case ID -> Comparator.comparingInt(StageRow::stageId).thenComparingInt(StageRow::attemptId);
            case DURATION -> Comparator.comparingLong(StageRow::durationMs);
            case TASKS -> Comparator.comparingInt(StageRow::numTasks);
            case FAILED -> Comparator.comparingInt(StageRow::numFailedTasks);
            case SPILL -> Comparator.comparingLong(s -> s.memoryBytesSpilled() + s.diskBytesSpilled());
            case SHUFFLE -> Comparator.comparingLong(s -> s.shuffleReadBytes() + s.shuffleWriteBytes());
            case GC -> Comparator.comparingLong(StageRow::jvmGcTimeMs);
            case INPUT -> Comparator.comparingLong(StageRow::inputBytes);
            case OUTPUT -> Comparator.comparingLong(StageRow::outputBytes);
        };
        rows.sort(desc ? cmp.reversed() : cmp);
        return rows;
    }

    /**
     * The SQL operators a stage ran, per query: query id → "Sort, Exchange" (each name once, in plan order), or ""
     * for a query whose jobs ran the stage when no operator of it is known.
     */
    static Map<Long, String> operatorsByQuery(List<SqlQuery.StageOperator> ops) {
        if (ops.isEmpty()) {
            return Map.of();
        }
        Map<Long, List<String>> byQuery = new java.util.LinkedHashMap<>();
        for (SqlQuery.StageOperator o : ops) {
            List<String> names = byQuery.computeIfAbsent(o.executionId(), k -> new ArrayList<>());
            String n = o.name().strip();
            if (o.nodeId() != SqlQuery.StageOperator.NO_NODE && !names.contains(n)) {
                names.add(n);
            }
        }
        Map<Long, String> text = new java.util.LinkedHashMap<>();
        byQuery.forEach((q, names) -> text.put(q, String.join(", ", names)));
        return text;
    }

    /** The name on one line: cut past {@link #NAME_CHARS} characters, the whole name in the hover text. */
    static void name(Html h, String name) {
        JtestageNameGenerated.render(new PageOutput(h), null, name);
    }

    /** The first line of a name, at most {@link #NAME_CHARS} characters (code points), "…" when cut. */
    static String shorten(String name) {
        String first = name;
        int nl = first.indexOf('\n');
        if (nl >= 0) {
            first = first.substring(0, nl).stripTrailing();
        }
        if (first.codePointCount(0, first.length()) > NAME_CHARS) {
            first = first.substring(0, first.offsetByCodePoints(0, NAME_CHARS - 1)).stripTrailing();
        } else if (nl < 0) {
            return name;
        }
        return first + "…";
    }

    /** The quantiles the stage stored, of those the table shows. */
    static List<Double> shownQuantiles(StageRow s) {
        List<Double> shown = new ArrayList<>();
        for (double q : SHOWN_QUANTILES) {
            if (!Double.isNaN(s.quantile("duration", q))) {
                shown.add(q);
            }
        }
        return shown;
    }

    /** A quantile's column heading: min, p25, median, p75, p95, max. */
    static String quantileLabel(double q) {
        return q == 0 ? "min" : q == 1 ? "max" : q == 0.5 ? "median" : "p" + Math.round(q * 100);
    }

    /** A metric's value at a quantile in the metric's unit, "—" when not stored. */
    static String value(StageRow s, Metric m, double q) {
        double v = s.quantile(m.path(), q);
        return Double.isNaN(v) ? "—" : format(m.unit(), Math.round(v));
    }

    static boolean used(StageRow s, Metric m, List<Double> shown) {
        for (double q : shown) {
            double v = s.quantile(m.path(), q);
            if (!Double.isNaN(v) && v != 0) {
                return true;
            }
        }
        return false;
    }

    private static String format(Unit unit, long v) {
        return switch (unit) {
            case MS -> Fmt.duration(v);
            case NS -> Fmt.duration(v / 1_000_000);
            case BYTES -> Fmt.bytes(v);
            case COUNT -> Fmt.count(v);
        };
    }
}
