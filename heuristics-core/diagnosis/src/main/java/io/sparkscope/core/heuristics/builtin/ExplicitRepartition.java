package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.DetailLabel;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.text.Units;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A {@code repartition(n)} or {@code coalesce(n)} in the code that gives a stage fewer tasks than the application has
 * cores, in a stage that weighs on the run: the other cores wait while a few tasks do all the work. Only the call in
 * the code changes such a count (no setting does), so the advice names the call and the operator or call site where
 * it shows. Impact: the stage's wall time less the time its task time would take spread over all the cores.
 */
public final class ExplicitRepartition implements Heuristic {
    public static final String ID = "ExplicitRepartition";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        return IdleSlots.THRESHOLDS;
    }

    @Override
    public Map<String, DetailLabel> detailLabels() {
        return Map.of(
                "explicitCall", new DetailLabel("Call in the code", DetailLabel.Unit.TEXT),
                "explicitCount", new DetailLabel("Partitions it asks for", DetailLabel.Unit.COUNT),
                "operator", new DetailLabel("Plan operator or call site", DetailLabel.Unit.TEXT),
                "slots", IdleSlots.SLOTS_LABEL,
                "savingMs", IdleSlots.SAVING_LABEL);
    }

    @Override
    public String description() {
        return """
                a stage whose partition count an explicit `repartition(n)` / `coalesce(n)` set (told by the SQL plan:
                `Exchange … REPARTITION_BY_NUM` or `RoundRobinPartitioning(n)`, `Coalesce n`; or by the RDD call site
                "repartition at …", "coalesce at …") with fewer tasks than the application's cores: saving = stage
                wall time − its task time ÷ cores, ≥ `minSavingMs` 1 s and ≥ 5 % of the app LOW, ≥ 20 % and ≥
                `highSavingMs` 5 s HIGH, because the other cores idle. Advice at the call (raise it to cores × 2–3,
                or drop it; a coalesce before heavy work: a repartition instead), never a setting, since none changes
                an explicit count. Impact: that saving. In local mode the cores are those its tasks showed they could use at once
                (CPU time ÷ span, when tasks side by side waited for a core): local[N] above the machine's cores
                counts no threads without cores.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        SparkSettings conf = SparkSettings.of(app);
        // Only the cores the tasks could really use side by side: more partitions cannot use threads without cores.
        int slots = Facts.usableSlots(app, conf);
        String cores = IdleSlots.coresNote(Facts.slots(app, conf), slots);
        if (slots <= 1) {
            return List.of(); // one core, or cores unknown: no idle core to speak of
        }
        Map<Integer, ExplicitPartitions.Source> explicit = ExplicitPartitions.of(app);
        if (explicit.isEmpty()) {
            return List.of();
        }
        record Judged(long savingMs, Finding finding) {
        }
        List<Judged> out = new ArrayList<>();
        for (StageSummary s : app.stages()) {
            ExplicitPartitions.Source src = explicit.get(s.stageId());
            if (src == null || s.numTasks() >= slots) {
                continue;
            }
            IdleSlots idle = IdleSlots.of(app, s, slots);
            Severity severity = idle.grade(app, cfg, ID);
            if (severity == Severity.NONE) {
                continue;
            }
            long target = 2L * slots;
            String raise = src.call().startsWith("coalesce")
                    ? "A coalesce is narrow: it pulls all the work before it into its " + s.numTasks()
                    + (s.numTasks() == 1 ? " task" : " tasks") + ". Drop " + src.call() + ", move it after the heavy"
                    + " work, or use repartition(" + src.count() + ") in its place (a shuffle, so the work before it"
                    + " keeps every core busy); if you need fewer output files rather than " + src.count()
                    + ", coalesce to at least " + target + " (the " + slots + " cores × 2–3)."
                    : "Raise " + src.call() + " to at least " + target + " (the " + slots + " cores × 2–3: " + target
                    + "–" + 3L * slots + " partitions), or drop it and let the stage keep its natural partitioning.";
            Finding.Builder f = Finding.builder(ID, severity)
                    .location(s.key())
                    .title(src.call() + " leaves " + (slots - s.numTasks()) + " of " + slots + " cores idle in stage "
                            + s.stageId())
                    .message(Facts.capitalize(Facts.stageLabel(s, app)) + " ran " + s.numTasks()
                            + (s.numTasks() == 1 ? " task" : " tasks") + " on " + slots + " cores because of "
                            + src.where() + ": it took " + Units.duration(idle.stageMs()) + ", where " + idle.spread()
                            + ". No setting changes a count the code sets.")
                    .recommendation(raise)
                    .impact(idle.savingMs(), 0, idle.basis() + cores)
                    .stage(s.key())
                    .detail("explicitCall", src.call())
                    .detail("explicitCount", src.count())
                    .detail("operator", src.operator())
                    .detail("slots", slots)
                    .detail("numTasks", s.numTasks())
                    .detail("stageDurationMs", idle.stageMs())
                    .detail("taskTimeMs", idle.taskMs())
                    .detail("savingMs", idle.savingMs());
            if (src.inPlan()) {
                f.planNode(src.executionId(), src.nodeId(), src.nodeName());
            }
            out.add(new Judged(idle.savingMs(), f.build()));
        }
        out.sort(Comparator.comparingLong(Judged::savingMs).reversed());
        return out.stream().map(Judged::finding).toList();
    }
}
