package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.DetailLabel;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.StageSummary;
import io.sparkscope.core.text.Units;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The same files (or table) read from storage by several SQL executions, each time anew: nothing was cached, so
 * every action paid the read (and the filters fused with it) again. Caching the DataFrame after its filters would
 * read once; the saving is the repeated reads' stage time less the one read that would stay.
 */
public final class RepeatedScan implements Heuristic {
    public static final String ID = "RepeatedScan";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        List<Threshold> own = List.of(
                new Threshold("minReads", "2",
                        "reads of the same input (same format, files or table, and partition filters) reported"),
                new Threshold("minSavingMs", "1000",
                        "reads whose repeats cost less wall time (ms) than this are not reported"),
                new Threshold("appShare.low", "0.05",
                        "share of the application's time the repeats cost at or above which it is LOW"));
        return java.util.stream.Stream.concat(own.stream(), FileScans.highThresholds().stream()).toList();
    }

    @Override
    public Map<String, DetailLabel> detailLabels() {
        return Map.of(
                "reads", new DetailLabel("Reads of the input", DetailLabel.Unit.COUNT),
                "input", new DetailLabel("Input read", DetailLabel.Unit.TEXT),
                "repeatTaskMs", new DetailLabel("Task time of the repeated reads", DetailLabel.Unit.DURATION_MS));
    }

    @Override
    public String description() {
        return """
                the same files or table (same format, location and partition filters in the SQL plans' scan nodes)
                read by ≥ `minReads` 2 scans of the SQL executions, each in stages of its own: nothing was cached, so
                each action read (and filtered) the input again. Impact: the wall and task time of the stages that
                ran those scans, less the largest one (the read that stays), at least `minSavingMs` 1 s. LOW from
                `appShare.low` 5 % of the application, HIGH from `appShare.high` 30 % and `highMinMs` 1 min. Advice:
                `cache()`/`persist()` the DataFrame after its filters and before the first action, `unpersist()` when
                done.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long minReads = Math.max(2, cfg.count(ID + ".minReads"));
        long minSavingMs = cfg.count(ID + ".minSavingMs");
        double lowShare = cfg.threshold(ID + ".appShare.low");
        long appMs = app.durationMs();
        Map<Integer, StageSummary> byId = FileScans.stagesById(app);

        // The same input read with other partition filters reads other files: those are different inputs.
        Map<String, List<FileScans.Scan>> groups = new LinkedHashMap<>();
        for (FileScans.Scan s : FileScans.scans(app)) {
            if (s.input().isEmpty() || FileScans.stages(byId, s.stageIds()).isEmpty()) {
                continue; // a scan that never ran (an execution without jobs) read nothing
            }
            groups.computeIfAbsent(s.format() + "|" + s.input() + "|" + s.partitionFilters(), k -> new ArrayList<>())
                    .add(s);
        }
        record Read(FileScans.Scan scan, List<StageSummary> stages, long taskMs, long wallMs) {
        }
        record Repeated(long wallMs, Finding finding) {
        }
        List<Repeated> out = new ArrayList<>();
        for (List<FileScans.Scan> group : groups.values()) {
            List<Read> reads = new ArrayList<>();
            Set<Integer> seen = new HashSet<>();
            for (FileScans.Scan s : group) {
                // Two scans in one stage (a self-join) share its time: each stage is counted once.
                List<StageSummary> own = FileScans.stages(byId, s.stageIds()).stream()
                        .filter(st -> seen.add(st.stageId())).toList();
                if (!own.isEmpty()) {
                    reads.add(new Read(s, own, FileScans.taskMs(own), FileScans.wallMs(own)));
                }
            }
            if (reads.size() < minReads) {
                continue;
            }
            Read kept = reads.stream().max(Comparator.comparingLong(Read::wallMs)).orElseThrow();
            long taskMs = reads.stream().mapToLong(Read::taskMs).sum() - kept.taskMs();
            long wallMs = reads.stream().mapToLong(Read::wallMs).sum() - kept.wallMs();
            if (wallMs < minSavingMs) {
                continue;
            }
            if (appMs > 0 && (double) wallMs / appMs < lowShare) {
                continue;
            }
            Severity severity = FileScans.severity(cfg, ID, wallMs, appMs);
            FileScans.Scan first = reads.get(0).scan();
            List<StageSummary> allStages = reads.stream().flatMap(r -> r.stages().stream()).toList();
            List<Long> executions = reads.stream().map(r -> r.scan().sql().executionId()).distinct().toList();
            String stageList = FileScans.ids(allStages);
            String filters = first.dataFilters().isEmpty() ? "" : " with the filters [" + first.dataFilters() + "]";
            Finding.Builder f = Finding.builder(ID, severity)
                    .location(first.sql().executionId() + "." + first.node().id())
                    .title("The same " + first.format() + " input read " + reads.size() + " times")
                    .message("The " + first.format() + " input " + first.input() + " was read from storage "
                            + reads.size() + " times" + filters + ", by SQL executions "
                            + executions.stream().map(String::valueOf).reduce((a, b) -> a + ", " + b).orElse("")
                            + " (stages " + stageList + "), and never cached: each action read and filtered it again."
                            + " Those stages took " + Units.duration(FileScans.wallMs(allStages)) + " ("
                            + Units.duration(FileScans.taskMs(allStages)) + " of task time).")
                    .recommendation("Cache the DataFrame that reads this input once its filters and column"
                            + " selection are applied, before the first action (df = spark.read...where(...).cache(),"
                            + " or persist(StorageLevel.MEMORY_AND_DISK) when it may not fit in memory), and"
                            + " unpersist() it after the last action: the later actions then read the cached rows"
                            + " instead of the files. If the actions are independent, writing the filtered data once"
                            + " (to a temporary table) does the same across jobs.")
                    .stages(FileScans.keys(allStages))
                    .impact(wallMs, taskMs, "wall and task time of the " + reads.size() + " reading stages less the"
                            + " longest read, which a cache keeps (reading the cache is not free: an upper bound)")
                    .detail("input", first.input())
                    .detail("format", first.format())
                    .detail("reads", reads.size())
                    .detail("sqlExecutionIds", executions)
                    .detail("repeatTaskMs", taskMs)
                    .detail("repeatWallMs", wallMs)
                    .detail("keptReadWallMs", kept.wallMs());
            if (!first.partitionFilters().isEmpty()) {
                f.detail("partitionFilters", first.partitionFilters());
            }
            if (!first.dataFilters().isEmpty()) {
                f.detail("dataFilters", first.dataFilters());
            }
            for (Read r : reads) {
                f.planNode(r.scan().sql().executionId(), r.scan().node().id(), r.scan().node().name().trim());
            }
            out.add(new Repeated(wallMs, f.build()));
        }
        out.sort(Comparator.comparingLong(Repeated::wallMs).reversed());
        return out.stream().map(Repeated::finding).toList();
    }
}
