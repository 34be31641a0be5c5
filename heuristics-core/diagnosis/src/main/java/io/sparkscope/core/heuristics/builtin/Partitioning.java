package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.text.Units;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * How to give one stage more or fewer partitions, by what the stage is: an RDD stage takes its partitions from the
 * code ({@code repartition}, {@code coalesce}, the RDD's creation) and {@code spark.default.parallelism}; a SQL stage
 * reading files from {@code spark.sql.files.maxPartitionBytes}; a SQL shuffle from
 * {@code spark.sql.shuffle.partitions}, which AQE coalesces when it is on. Advice never names a setting that is not in
 * play for the stage.
 *
 * @param advice the settings to change (may be empty)
 * @param text   the words for the recommendation, naming the advice through its phrase
 */
record Partitioning(List<SettingAdvice> advice, String text) {
    static final String SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions";
    static final String MAX_PARTITION_BYTES = "spark.sql.files.maxPartitionBytes";
    static final String DEFAULT_PARALLELISM = "spark.default.parallelism";
    static final String AQE = "spark.sql.adaptive.enabled";

    /**
     * The advice that changes a stage's partition count. When the code set the count with an explicit repartition or
     * coalesce, only that call changes it, and no setting is advised ({@code spark.sql.shuffle.partitions} does not
     * change an explicit count).
     *
     * @param target the partition count the stage should have (more or fewer than it ran with)
     * @param slots  task slots of the application (Spark's default parallelism), 0 when unknown
     */
    static Partitioning of(AppSnapshot app, SparkSettings conf, Facts.StageKind kind, StageSummary s, long target,
                           int slots, String reason) {
        return of(conf, kind, s, ExplicitPartitions.of(app).get(s.stageId()), target, slots, reason);
    }

    private static Partitioning of(SparkSettings conf, Facts.StageKind kind, StageSummary s,
                                   ExplicitPartitions.Source explicit, long target, int slots, String reason) {
        int now = Math.max(1, s.numTasks());
        if (explicit != null) {
            return new Partitioning(List.of(), "its " + now + " partitions are set in the code by " + explicit.where()
                    + ", which no setting changes: make it " + explicit.call().replaceFirst("\\(\\d+", "(" + target)
                    + " there, or drop it");
        }
        boolean more = target > now;
        double factor = (double) target / now;
        List<SettingAdvice> advice = new ArrayList<>();
        boolean readsFiles = s.totals() != null && s.totals().get(TaskMetric.INPUT_BYTES) > 0
                && s.totals().shuffleReadBytes() == 0;
        if (kind != Facts.StageKind.SQL) {
            // An RDD stage: its partitions come from the code, or from spark.default.parallelism for shuffles that
            // name no count. spark.sql.* settings do not apply.
            String rdd = more
                    ? "repartition(" + target + ") before the heavy step, or pass " + target
                    + " partitions to the shuffle (e.g. reduceByKey(f, " + target + "))"
                    : "coalesce(" + target + ") the RDD, or create it with fewer partitions (e.g. parallelize(data, "
                    + target + "), textFile(path, " + target + "))";
            String text = rdd;
            SparkSettings.Value dp = conf.current(DEFAULT_PARALLELISM);
            // The setting only gives the count of shuffles that name none. A stage whose count differs from it got
            // its count from the code (parallelize(data, 2000), textFile, reduceByKey(f, n)): changing the setting
            // would not change that stage, and could move the others the wrong way.
            long dpNow = dp.known() ? parseLong(dp.value()) : slots;
            if ((dp.known() || slots > 0) && dpNow == now) {
                SettingAdvice a = dp.known() ? conf.advise(DEFAULT_PARALLELISM, Long.toString(target), reason)
                        : new SettingAdvice(DEFAULT_PARALLELISM, Integer.toString(slots),
                        SettingAdvice.ValueSource.DEFAULT, Long.toString(target), reason);
                if (!a.recommendsCurrent()) {
                    advice.add(a);
                    text += "; shuffles that name no partition count use " + a.phrase();
                }
            }
            return new Partitioning(advice, (kind == Facts.StageKind.RDD ? "This is an RDD stage, so"
                    + " spark.sql.shuffle.partitions does not apply: " : "") + text);
        }
        if (readsFiles) {
            long cur = conf.size(MAX_PARTITION_BYTES, 1).orElse(128 * Units.MiB);
            long want = Math.max(Units.MiB, Math.round(cur / factor));
            SettingAdvice a = conf.advise(MAX_PARTITION_BYTES, Units.sparkSize(want), reason);
            String text = (more ? "split the input finer: " : "read larger splits: ") + a.phrase()
                    + (more ? "" : ", or compact the small input files");
            advice.add(a);
            return new Partitioning(advice, text);
        }
        boolean readsShuffle = s.totals() != null && s.totals().shuffleReadBytes() > 0;
        if (!readsShuffle) {
            // Neither a shuffle nor files: the count comes from the query's source (spark.range(…, n), a local
            // collection, an explicit repartition), so no setting changes it.
            return new Partitioning(advice, "the stage reads no shuffle and no files, so its " + now
                    + (now == 1 ? " partition comes" : " partitions come") + " from the query itself (e.g. spark.range(…, numPartitions)"
                    + " or an explicit repartition):"
                    + (more ? " repartition(" + target + ")" : " coalesce(" + target + ")") + " there");
        }
        OptionalLong set = conf.integer(SHUFFLE_PARTITIONS).isPresent()
                ? OptionalLong.of(conf.integer(SHUFFLE_PARTITIONS).getAsInt()) : OptionalLong.empty();
        long cur = set.orElse(200);
        long want = Math.max(1, Math.round(cur * factor));
        SettingAdvice a = conf.advise(SHUFFLE_PARTITIONS, Long.toString(want), reason);
        advice.add(a);
        StringBuilder text = new StringBuilder(more ? "use more shuffle partitions: " : "use fewer shuffle partitions: ")
                .append(a.phrase()).append(", or repartition(").append(target).append(") in the query");
        Boolean aqe = conf.aqe();
        if (!more && !Boolean.TRUE.equals(aqe)) {
            SettingAdvice on = conf.advise(AQE, "true", "AQE coalesces small shuffle partitions at run time");
            advice.add(on);
            text.append("; or let AQE coalesce them: ").append(on.phrase());
        } else if (!more && conf.aqeCoalesceOn()) {
            text.append(" (AQE already coalesces partitions toward spark.sql.adaptive.advisoryPartitionSizeInBytes,"
                    + " now ").append(conf.current("spark.sql.adaptive.advisoryPartitionSizeInBytes").value())
                    .append(", but only after the shuffle: fewer to start with saves the map side too)");
        }
        return new Partitioning(advice, text.toString());
    }

    private static long parseLong(String v) {
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
