package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.StreamingTotals;

import java.util.ArrayList;
import java.util.List;

/**
 * Batches that take longer than the query's processing-time trigger. Spark then starts the next batch at once
 * instead of on the trigger's beat, so the trigger no longer sets the rhythm: batches run back to back and results
 * come as late as the batches are long. Needs the trigger interval, which only a live recording knows (Spark's event
 * log does not carry it); silent otherwise.
 */
public final class StreamingTriggerOverrun implements Heuristic {
    public static final String ID = "StreamingTriggerOverrun";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("share.low", "0.1",
                        "share of batches longer than the trigger at or above which it is LOW"),
                new Threshold("share.high", "0.5",
                        "share of batches longer than the trigger at or above which it is HIGH"),
                new Threshold("minBatches", "10",
                        "runs with fewer batches are not judged"));
    }

    @Override
    public String description() {
        return """
                batches longer than the processing-time trigger: share ≥ 0.1 LOW, ≥ 0.5 HIGH over ≥ 10 batches,
                because Spark then starts the next batch at once and the trigger no longer sets the pace. Needs the
                trigger interval, which only the live listener knows (it reads it from the running query; event logs
                do not carry it), so imported logs are never judged. *Do*: a trigger nine in ten recent batches fit
                in, rounded up to 1, 2 or 5 × 10ⁿ ms, or faster batches.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long minBatches = cfg.count(ID + ".minBatches");
        List<Finding> out = new ArrayList<>();
        for (StreamingQuerySummary q : app.streamingQueries()) {
            StreamingTotals t = q.totals();
            long interval = q.triggerIntervalMs();
            if (interval <= 0 || t.batchesOverTrigger() <= 0 || t.batches() < minBatches) {
                continue;
            }
            double share = (double) t.batchesOverTrigger() / t.batches();
            Severity severity = cfg.levels(ID + ".share").grade(share);
            if (severity == Severity.NONE) {
                continue;
            }
            // a trigger nine batches in ten fit in, as a person would write it
            long p90 = StreamingFacts.durationQuantile(q.recentBatches(), 0.9);
            long suggested = StreamingFacts.roundUp(Math.max(interval + 1, p90));
            String phase = StreamingFacts.heaviestPhaseText(t);
            long overrunMs = Math.max(0, t.batchDurationMs() - interval * t.batches());
            Finding.Builder f = Finding.builder(ID, severity)
                    .title(Units.percent(share) + " of the batches of " + StreamingFacts.label(q)
                            + " overrun its trigger")
                    .message(Units.count(t.batchesOverTrigger()) + " of the " + Units.count(t.batches())
                            + " batches of " + StreamingFacts.label(q) + " (" + Units.percent(share) + ") took longer"
                            + " than its " + Units.duration(interval) + " trigger (mean batch "
                            + Units.duration(Math.round(t.meanBatchDurationMs())) + ", longest "
                            + Units.duration(t.maxBatchDurationMs()) + "). After such a batch Spark starts the next"
                            + " one at once, so batches run back to back and results come as late as batches are"
                            + " long, not every " + Units.duration(interval) + ".")
                    .recommendation("Use a trigger the batches fit in, about " + Units.duration(suggested)
                            + " (.trigger(Trigger.ProcessingTime(\"" + StreamingFacts.triggerText(suggested)
                            + "\")), nine in ten recent batches take " + Units.duration(p90) + " or less), or make"
                            + " the batches faster" + (phase.isEmpty() ? "" : ": " + phase) + ".")
                    .impact(0, 0, "")
                    .detail("triggerIntervalMs", interval)
                    .detail("batchesOverTrigger", t.batchesOverTrigger())
                    .detail("batches", t.batches())
                    .detail("share", Units.round2(share))
                    .detail("p90BatchMs", p90)
                    .detail("suggestedTriggerMs", suggested)
                    .detail("overrunMs", overrunMs);
            StreamingFacts.where(f, q);
            out.add(f.build());
        }
        return out;
    }
}
