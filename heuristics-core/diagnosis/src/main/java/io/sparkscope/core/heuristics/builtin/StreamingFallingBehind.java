package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StreamingQuerySummary;
import io.sparkscope.core.model.StreamingTotals;

import java.util.ArrayList;
import java.util.List;

/**
 * A streaming query that processes rows more slowly than they arrive, batch after batch: its backlog, and with it
 * the delay between an event and its result, grows for as long as that lasts. Spark reports both rates per batch
 * (rows over the time since the previous trigger, rows over the batch's own time); a single slow batch is noise, a
 * run of them that lasts minutes is a query that cannot keep up. Judged on the longest such run of the whole query
 * run (the recorder's totals), graded by how far processing fell short.
 */
public final class StreamingFallingBehind implements Heuristic {
    public static final String ID = "StreamingFallingBehind";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return List.of(
                new Threshold("deficit.low", "0.1",
                        "1 - processed / input rate over the run at or above which it is LOW"),
                new Threshold("deficit.high", "0.3",
                        "1 - processed / input rate over the run at or above which it is HIGH"),
                new Threshold("minBatches", "10",
                        "shorter runs of falling-behind batches are not judged"),
                new Threshold("minMs", "60000",
                        "runs of falling-behind batches shorter than this (ms) are not judged"));
    }

    @Override
    public String description() {
        return """
                the longest run of consecutive batches whose rows arrived faster than they were processed (Spark's
                per-batch `inputRowsPerSecond` > `processedRowsPerSecond`), ≥ `minBatches` 10 batches and ≥ `minMs`
                60 s long: deficit 1 − processed/input ≥ 0.1 LOW, ≥ 0.3 HIGH, because the backlog and the delay of
                every result grow for as long as it lasts (with back-to-back batches it means each batch took longer
                than the one before). Names both rates, the batches and whether it is still behind. *Do*: more task
                slots (`spark.executor.instances` scaled to the rate needed when the application fixes it), less
                work per row (the heaviest phase is named), and a cap per batch (`maxOffsetsPerTrigger`,
                `maxFilesPerTrigger`). Impact: delay added, time behind × deficit.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long minBatches = cfg.count(ID + ".minBatches");
        long minMs = cfg.count(ID + ".minMs");
        SparkSettings conf = SparkSettings.of(app);
        List<Finding> out = new ArrayList<>();
        for (StreamingQuerySummary q : app.streamingQueries()) {
            StreamingTotals t = q.totals();
            StreamingTotals.Streak streak = t.longestBehind();
            if (streak.batches() < minBatches || streak.spanMs() < minMs) {
                continue;
            }
            double input = streak.meanInputRowsPerSecond();
            double processed = streak.meanProcessedRowsPerSecond();
            if (input <= 0) {
                continue;
            }
            double deficit = 1 - processed / input;
            Severity severity = cfg.levels(ID + ".deficit").grade(deficit);
            if (severity == Severity.NONE) {
                continue;
            }
            boolean ongoing = t.currentBehind().batches() > 0
                    && t.currentBehind().firstBatchId() == streak.firstBatchId();
            double needed = processed > 0 ? input / processed : Double.POSITIVE_INFINITY;
            long lagMs = Math.round(streak.spanMs() * deficit);
            String phase = StreamingFacts.heaviestPhaseText(t);
            SettingAdvice more = moreExecutors(conf, needed);
            StringBuilder advice = new StringBuilder("The query needs about ")
                    .append(Double.isInfinite(needed) ? "far more than" : Units.times(needed))
                    .append(" its processing rate: give it more task slots");
            if (more != null) {
                advice.append(" (").append(more.phrase()).append(')');
            }
            advice.append(" or less work per row");
            if (!phase.isEmpty()) {
                advice.append("; ").append(phase);
            }
            advice.append(". While it falls behind, each batch takes everything that arrived, so batches and latency"
                    + " keep growing: cap a batch with the source's maxOffsetsPerTrigger (Kafka) or maxFilesPerTrigger"
                    + " (files) to keep batches short while the backlog drains.");
            Finding.Builder f = Finding.builder(ID, severity)
                    .title(Facts.capitalize(StreamingFacts.label(q)) + " falls behind its input")
                    .message(Facts.capitalize(StreamingFacts.label(q)) + " processed " + rate(processed)
                            + " rows/s while " + rate(input) + " rows/s arrived, over " + streak.batches()
                            + " consecutive batches (" + Units.duration(streak.spanMs()) + ", batches "
                            + streak.firstBatchId() + "–" + (streak.firstBatchId() + streak.batches() - 1) + ")"
                            + (ongoing ? ", and it still does at its latest batch" : "") + ": its backlog grew by"
                            + " about " + rate(input - processed) + " rows each second, adding about "
                            + Units.duration(lagMs) + " of delay. " + Units.count(t.behindBatches()) + " of its "
                            + Units.count(t.batches()) + " batches fell behind.")
                    .recommendation(advice.toString())
                    .impact(lagMs, 0, "delay the backlog added: time behind × (1 − processed rate ÷ input rate)")
                    .detail("batchesBehind", streak.batches())
                    .detail("firstBatchId", streak.firstBatchId())
                    .detail("spanMs", streak.spanMs())
                    .detail("inputRowsPerSecond", Units.round2(input))
                    .detail("processedRowsPerSecond", Units.round2(processed))
                    .detail("deficit", Units.round2(deficit))
                    .detail("ongoing", ongoing);
            StreamingFacts.where(f, q);
            if (more != null) {
                f.advise(more);
            }
            out.add(f.build());
        }
        return out;
    }

    /**
     * More executors where the application fixes their number ({@code spark.executor.instances} set, no dynamic
     * allocation): enough for the rate it needs. Null elsewhere (local mode, dynamic allocation, unknown count).
     */
    private static SettingAdvice moreExecutors(SparkSettings conf, double needed) {
        SparkSettings.Value instances = conf.current("spark.executor.instances");
        if (instances.source() != SettingAdvice.ValueSource.SET || Double.isInfinite(needed)
                || "true".equalsIgnoreCase(conf.get("spark.dynamicAllocation.enabled", "false").trim())) {
            return null;
        }
        try {
            long now = Long.parseLong(instances.value().trim());
            long want = (long) Math.ceil(now * needed);
            return want > now ? conf.advise("spark.executor.instances", Long.toString(want),
                    "a streaming query processes " + Units.times(needed) + " too slowly") : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String rate(double r) {
        return Units.count(Math.round(r));
    }
}
