package io.sparkscope.core.heuristics.builtin;

import io.sparkscope.core.heuristics.DetailLabel;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.SettingAdvice;
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
import java.util.OptionalLong;

/**
 * Many small files read or written by a SQL execution, from the scan's "number of files read" and "size of files
 * read" and the write's "number of written files" and "written output". Each file costs an open, a listing entry,
 * a footer read and often a task of its own whatever its size, so thousands of kilobyte files cost far more than
 * the few large files holding the same bytes. The saving is measured where each file had a task of its own (the
 * time of the tasks that fewer files would not need) and estimated at {@code perFileMs} a file otherwise.
 */
public final class SmallFiles implements Heuristic {
    public static final String ID = "SmallFiles";
    private static final String MAX_PARTITION_BYTES = "spark.sql.files.maxPartitionBytes";
    private static final String OPEN_COST = "spark.sql.files.openCostInBytes";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Threshold> thresholds() {
        List<Threshold> own = List.of(
                new Threshold("minFiles", "100",
                        "reads or writes of fewer files than this are not judged"),
                new Threshold("maxAverageBytes", "4m",
                        "files smaller than this on average are small"),
                new Threshold("perFileMs", "10",
                        "task time (ms) one more file costs when tasks handle several files each (open, footer or"
                                + " commit)"),
                new Threshold("targetFileBytes", "128m",
                        "the file size compaction aims for (Spark's default maxPartitionBytes)"),
                new Threshold("minSavingMs", "500",
                        "files whose estimated overhead is below this wall time (ms) are not reported"));
        return java.util.stream.Stream.concat(own.stream(), FileScans.highThresholds().stream()).toList();
    }

    @Override
    public Map<String, DetailLabel> detailLabels() {
        return Map.of(
                "files", new DetailLabel("Files", DetailLabel.Unit.COUNT),
                "averageFileBytes", new DetailLabel("Average file size", DetailLabel.Unit.BYTES),
                "overheadShare", new DetailLabel("Share of the stages' task time spent per file", DetailLabel.Unit.SHARE));
    }

    @Override
    public String description() {
        return """
                a SQL scan (its "number of files read" and "size of files read") or write ("number of written
                files", "written output") of ≥ `minFiles` 100 files averaging < `maxAverageBytes` 4 MiB: each file
                costs an open and often a task of its own whatever its size. Impact, for the files beyond those
                `targetFileBytes` 128 MiB files would need: with a task per file or so, the time of the tasks that
                would go; else `perFileMs` 10 ms of task time a file (at most half the stages' task time); at least
                `minSavingMs` 500 ms of wall time. LOW,
                HIGH from `appShare.high` 30 % of the application and `highMinMs` 1 min. Advice: compact the input;
                for a write, fewer output partitions (`coalesce` before the write, repartition by the partition
                columns); `spark.sql.files.maxPartitionBytes`/`openCostInBytes` back to their defaults when set
                below them.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long minFiles = cfg.count(ID + ".minFiles");
        long maxAverage = cfg.bytes(ID + ".maxAverageBytes");
        long perFileMs = cfg.count(ID + ".perFileMs");
        long target = Math.max(1, cfg.bytes(ID + ".targetFileBytes"));
        long minSavingMs = cfg.count(ID + ".minSavingMs");
        long appMs = app.durationMs();
        SparkSettings conf = SparkSettings.of(app);
        Map<Integer, StageSummary> byId = FileScans.stagesById(app);

        List<Finding> out = new ArrayList<>();
        for (FileScans.Scan s : FileScans.scans(app)) {
            long files = s.metric("number of files read");
            long bytes = s.metric("size of files read");
            Estimate e = estimate(app, files, bytes, FileScans.stages(byId, s.stageIds()), minFiles, maxAverage, perFileMs,
                    target);
            if (e == null || e.wallMs() < minSavingMs) {
                continue;
            }
            Finding.Builder f = builder(e, FileScans.severity(cfg, ID, e.wallMs(), appMs))
                    .location("read" + s.sql().executionId() + "." + s.node().id())
                    .title(Units.count(files) + " small files read")
                    .message("SQL execution " + s.sql().executionId() + " read " + Units.count(files) + " "
                            + s.format() + " files of " + s.input() + " holding " + Units.bytes(bytes) + " in all ("
                            + Units.bytes(e.average()) + " a file on average), in " + stageText(e) + ". Each file"
                            + " is listed, opened and has its footer read whatever its size" + e.perTaskNote()
                            + ": about " + Units.percent(e.share()) + " of the stages' task time went to the number"
                            + " of files rather than to their bytes.")
                    .planNode(s.sql().executionId(), s.node().id(), s.node().name().trim())
                    .detail("input", s.input());
            StringBuilder advice = new StringBuilder("Compact the input into about " + Units.count(e.targetFiles())
                    + " file(s) of up to " + Units.bytes(target) + " (rewrite it once with"
                    + " df.repartition(" + e.targetFiles() + ").write(...), or let the table format compact it),"
                    + " and have its writer produce fewer files.");
            packingAdvice(f, conf, advice, files);
            out.add(f.recommendation(advice.toString()).build());
        }
        for (FileScans.Write w : FileScans.writes(app)) {
            long files = w.metric("number of written files");
            long bytes = w.metric("written output");
            Estimate e = estimate(app, files, bytes, FileScans.stages(byId, w.stageIds()), minFiles, maxAverage, perFileMs,
                    target);
            if (e == null || e.wallMs() < minSavingMs) {
                continue;
            }
            long dynamicParts = w.metric("number of dynamic part");
            String target0 = w.target().isEmpty() ? "" : " to " + w.target();
            Finding.Builder f = builder(e, FileScans.severity(cfg, ID, e.wallMs(), appMs))
                    .location("write" + w.plan().sql().executionId() + "." + w.node().id())
                    .title(Units.count(files) + " small files written")
                    .message("SQL execution " + w.plan().sql().executionId() + " wrote " + Units.count(files)
                            + " files" + target0 + " holding " + Units.bytes(bytes) + " in all ("
                            + Units.bytes(e.average()) + " a file on average), in " + stageText(e) + ". Each task"
                            + " writes a file of its own" + (dynamicParts > 0 ? " per partition value it holds ("
                            + Units.count(dynamicParts) + " partition values)" : "") + e.perTaskNote()
                            + ": the files cost about " + Units.percent(e.share()) + " of the stages' task time, and"
                            + " every later read pays for them again.")
                    .planNode(w.plan().sql().executionId(), w.node().id(), w.node().name().trim())
                    .detail("target", w.target());
            if (dynamicParts > 0) {
                f.detail("dynamicPartitions", dynamicParts);
            }
            String fewer = dynamicParts > 0
                    ? "repartition by the partition columns before the write (df.repartition(col(...)).write"
                    + ".partitionBy(...)), so each partition value is written by one task as one file"
                    : "coalesce the data to about " + Units.count(e.targetFiles()) + " partition(s) before the"
                    + " write (df.coalesce(" + e.targetFiles() + ").write(...)), so each task writes one larger file";
            out.add(f.recommendation("Write fewer, larger files: " + fewer + "; the option maxRecordsPerFile only"
                    + " caps a file's size, it does not merge small ones. Readers of this output then open "
                    + Units.count(e.targetFiles()) + " file(s) instead of " + Units.count(files) + ".").build());
        }
        out.sort(Comparator.comparingLong((Finding x) -> x.impact().wallMs()).reversed());
        return out;
    }

    /**
     * The files' cost in the stages that read or wrote them.
     *
     * @param perTask true when the stages ran about a task per file, so the tasks fewer files would not need measure
     *                the cost; false when it is estimated per file
     */
    private record Estimate(long files, long bytes, long average, long targetFiles, double share, boolean perTask,
                            List<StageSummary> stages, long taskMs, long wallMs) {
        String perTaskNote() {
            return perTask ? ", and here each file had a task of its own" : "";
        }
    }

    private static Estimate estimate(AppSnapshot app, long files, long bytes, List<StageSummary> stages, long minFiles,
                                     long maxAverage, long perFileMs, long target) {
        if (files < Math.max(1, minFiles) || bytes < 0 || stages.isEmpty()) {
            return null;
        }
        long average = bytes / files;
        if (average >= maxAverage) {
            return null;
        }
        long targetFiles = Math.max(1, (bytes + target - 1) / target);
        long stageTaskMs = FileScans.taskMs(stages);
        int tasks = stages.stream().mapToInt(StageSummary::numTasks).sum();
        if (stageTaskMs <= 0 || tasks <= 0) {
            return null;
        }
        // A task per file or so: the tasks beyond the compacted files' count would not run (their data is small,
        // so the remaining tasks take about as long as a small one). Otherwise a fixed cost per file, within tasks.
        boolean perTask = tasks * 2L >= files;
        double share = perTask
                ? (double) Math.max(0, tasks - targetFiles) / tasks
                : Math.min(0.5, (double) (files - targetFiles) * perFileMs / stageTaskMs);
        long taskMs = Math.round(stageTaskMs * share);
        long wallMs = WallTime.ofStages(app, stages, share);
        return new Estimate(files, bytes, average, targetFiles, share, perTask, stages, taskMs, wallMs);
    }

    private static Finding.Builder builder(Estimate e, Severity severity) {
        return Finding.builder(ID, severity)
                .stages(FileScans.keys(e.stages()))
                .impact(e.wallMs(), e.taskMs(), e.perTask()
                        ? "the time of the tasks beyond " + Units.count(e.targetFiles()) + ": a task per file, "
                        + Units.count(e.files()) + " files"
                        : "perFileMs × the " + Units.count(e.files() - e.targetFiles()) + " files beyond "
                        + Units.count(e.targetFiles()) + ", at most half the stages' task time")
                .detail("files", e.files())
                .detail("bytes", e.bytes())
                .detail("averageFileBytes", e.average())
                .detail("targetFiles", e.targetFiles())
                .detail("overheadShare", Units.round2(e.share()));
    }

    private static String stageText(Estimate e) {
        List<StageSummary> st = e.stages();
        String ids = FileScans.ids(st);
        int tasks = st.stream().mapToInt(StageSummary::numTasks).sum();
        return (st.size() == 1 ? "stage " : "stages ") + ids + " (" + Units.count(tasks) + " tasks, "
                + Units.duration(FileScans.wallMs(st)) + ")";
    }

    /**
     * Spark packs small files into one task up to maxPartitionBytes, counting openCostInBytes per file: values set
     * below their defaults make a task per file or so. Advise the defaults back only where they were lowered.
     */
    private static void packingAdvice(Finding.Builder f, SparkSettings conf, StringBuilder advice, long files) {
        String reason = files + " small files read";
        List<String> phrases = new ArrayList<>();
        OptionalLong maxPart = conf.size(MAX_PARTITION_BYTES, 1);
        if (conf.isSet(MAX_PARTITION_BYTES) && maxPart.isPresent() && maxPart.getAsLong() < 128 * Units.MiB) {
            SettingAdvice a = conf.advise(MAX_PARTITION_BYTES, "128m", reason + ": pack them into fewer tasks");
            f.advise(a);
            phrases.add(a.phrase());
        }
        OptionalLong open = conf.size(OPEN_COST, 1);
        if (conf.isSet(OPEN_COST) && open.isPresent() && open.getAsLong() < 4 * Units.MiB) {
            SettingAdvice a = conf.advise(OPEN_COST, "4m", reason + ": count each file's open cost");
            f.advise(a);
            phrases.add(a.phrase());
        }
        if (!phrases.isEmpty()) {
            advice.append(" Until then, let Spark pack them into fewer tasks: ").append(String.join(" and ", phrases))
                    .append(".");
        }
    }
}
