package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StreamingBatch;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.StreamingTotals;

import java.util.ArrayList;
import java.util.List;

/**
 * Rows the watermark dropped as too late: a stateful operator discards an input row whose event time is already
 * behind the watermark, silently, so those rows are missing from the results. Graded by their share of the query's
 * input. The advice names how far the watermark trails the newest event time now (the delay in force), read from
 * the kept batches: the watermark of a batch is the newest event time of the batches before it minus the delay.
 */
public final class StreamingLateData implements Heuristic {
    public static final String ID = "StreamingLateData";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("share.low", "0.001",
                        "share of input rows dropped as late at or above which it is LOW"),
                new Threshold("share.high", "0.05",
                        "share of input rows dropped as late at or above which it is HIGH"),
                new Threshold("minRows", "1",
                        "fewer dropped rows are not reported"));
    }

    @Override
    public String description() {
        return """
                input rows the watermark dropped as too late (`numRowsDroppedByWatermark`): share of the run's input
                ≥ 0.001 LOW, ≥ 0.05 HIGH (≥ `minRows` 1), because they are silently missing from the results. The
                advice names how far the watermark trails the newest event time now (from the kept batches) and a
                delay twice as long, with the state that costs.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long minRows = cfg.count(ID + ".minRows");
        List<Finding> out = new ArrayList<>();
        for (StreamingQuerySummary q : app.streamingQueries()) {
            StreamingTotals t = q.totals();
            long dropped = t.rowsDroppedByWatermark();
            if (dropped < Math.max(1, minRows) || t.inputRows() <= 0) {
                continue;
            }
            double share = (double) dropped / t.inputRows();
            Severity severity = cfg.levels(ID + ".share").grade(share);
            if (severity == Severity.NONE) {
                continue;
            }
            long delay = watermarkDelay(q.recentBatches());
            long stateRows = q.lastBatch() == null ? -1 : q.lastBatch().stateRows();
            StringBuilder advice = new StringBuilder("If these rows matter, allow more lateness");
            if (delay > 0) {
                long suggested = StreamingFacts.roundUp(2 * delay);
                advice.append(": the watermark trails the newest event time by about ").append(Units.duration(delay))
                        .append(" now; .withWatermark(\"<event-time column>\", \"")
                        .append(StreamingFacts.triggerText(suggested)).append("\") would keep windows open ")
                        .append(Units.duration(suggested)).append(" instead");
            } else {
                advice.append(" with a longer delay in .withWatermark(\"<event-time column>\", \"<delay>\")");
            }
            advice.append(", at the cost of state held that much longer");
            if (stateRows >= 0) {
                advice.append(" (").append(Units.count(stateRows)).append(" rows in state now)");
            }
            advice.append(". Rows later than any delay you can afford can go to a second query without a watermark"
                    + " that writes them out for a later correction.");
            Finding.Builder f = Finding.builder(ID, severity)
                    .title("The watermark of " + StreamingFacts.label(q) + " dropped " + Units.count(dropped)
                            + " late rows")
                    .message("The watermark of " + StreamingFacts.label(q) + " dropped " + Units.count(dropped)
                            + " input rows as too late (" + Units.percent(share) + " of its "
                            + Units.count(t.inputRows()) + " input rows), in " + Units.count(t.batchesDroppingRows())
                            + " of its " + Units.count(t.batches()) + " batches: they are missing from its results.")
                    .recommendation(advice.toString())
                    .impact(0, 0, "")
                    .detail("rowsDropped", dropped)
                    .detail("inputRows", t.inputRows())
                    .detail("share", share)
                    .detail("batchesDroppingRows", t.batchesDroppingRows())
                    .detail("watermarkDelayMs", delay);
            StreamingFacts.where(f, q);
            out.add(f.build());
        }
        return out;
    }

    /**
     * How far the watermark trails the event times, from the kept batches: per batch with an advanced watermark, the
     * newest event time of the batches before it minus its watermark; the latest such value, or -1.
     */
    static long watermarkDelay(List<StreamingBatch> batches) {
        long newestEvent = -1;
        long delay = -1;
        for (StreamingBatch b : batches) {
            if (b.watermark() > 0 && newestEvent > 0 && newestEvent >= b.watermark()) {
                delay = newestEvent - b.watermark();
            }
            newestEvent = Math.max(newestEvent, b.eventTimeMax());
        }
        return delay;
    }
}
