package io.sparkscope.server.cli;

import io.sparkscope.cli.AnalysisOptions;
import io.sparkscope.cli.LogLocationOptions;
import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.analysis.efficiency.Efficiency;
import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.efficiency.WhatIfCost;
import io.sparkscope.core.report.EfficiencyJson;
import io.sparkscope.core.report.EfficiencyText;
import io.sparkscope.core.analysis.whatif.ExecutorWhatIf;
import io.sparkscope.core.analysis.whatif.WhatIfPoint;
import io.sparkscope.core.analysis.whatif.WhatIfResult;
import io.sparkscope.core.report.WhatIfJson;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Platform;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.report.SnapshotJson;
import io.sparkscope.core.report.TextReport;
import com.fasterxml.jackson.core.JsonGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code analyze <file-or-dir>…}: reads Spark event logs and prints the report, or JSON. */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = "Analyze Spark event logs (plain, .lz4, .snappy, .zstd, rolling eventlog_v2_* directories, "
                + ".inprogress) and print a report per application.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
                "0:every application was analyzed (a log that could not be read is named and skipped)",
                "1:no application could be analyzed at all",
                "2:usage error, or a path that does not exist or cannot be read"})
public final class AnalyzeCommand implements Callable<Integer> {
    /** Warnings printed per log before the rest are only counted: a broken log must not flood the terminal. */
    private static final int MAX_WARNINGS_PER_LOG = 20;

    @Parameters(arity = "1..*", paramLabel = "<file-dir-or-uri>",
            description = "Event log files or directories of them: local paths or URIs (file:, hdfs:, s3a:, abfs:, gs:).")
    List<String> paths;

    @Mixin
    LogLocationOptions locations;

    @Option(names = "--json", description = "Print one JSON object per application (an array when several).")
    boolean json;

    @Option(names = "--quantiles", paramLabel = "q,…", split = ",",
            description = "Task quantiles, each in [0,1] (default: Spark's 0.05,0.25,0.5,0.75,0.95).")
    List<String> quantiles;

    @Option(names = "--tasks", description = "With --json, include each stage's kept tasks (see --tasks-per-stage).")
    boolean withTasks;

    @Mixin
    AnalysisOptions.TasksPerStage tasks;

    @Option(names = "--top", paramLabel = "N", defaultValue = "5",
            description = "Slowest stages listed in the text report (default: ${DEFAULT-VALUE}).")
    int topStages;

    @Mixin
    AnalysisOptions.Heuristics heuristics;

    @Option(names = "--what-if", description = "Also estimate the wall time at 25 %%–400 %% of the executors the run had "
            + "(replaying its task times into executors × cores slots), with the model's error on the actual count.")
    boolean whatIf;

    @Mixin
    CostOptions costs;

    @Override
    public Integer call() throws IOException {
        double[] qs = parseQuantiles();
        Prices prices = costs.prices();
        Diagnoser diagnoser = heuristics.diagnoser();
        // The live listener's windows: a log of any length is read within the same memory (RecorderOptions).
        RecorderOptions options = tasks.recorderOptions().withQuantiles(qs).withDefaultWindows();
        PrintStream out = System.out;
        PrintStream err = System.err;

        List<EventLogSource> sources = locations.discover(paths);

        // JSON goes out as it is made, an application at a time: a report is never one string in memory.
        JsonGenerator g = json ? SnapshotJson.generator(out) : null;
        boolean array = json && sources.size() > 1;
        if (array) {
            g.writeStartArray();
        }
        int analyzed = 0;
        int unusable = 0;
        for (EventLogSource source : sources) {
            int[] warnings = {0};
            EventLogAnalysis.Result result = EventLogAnalysis.analyze(source, options, diagnoser::diagnose, null,
                    problem -> {
                        if (warnings[0]++ < MAX_WARNINGS_PER_LOG) {
                            err.println("warning: " + problem);
                        }
                    });
            if (warnings[0] > MAX_WARNINGS_PER_LOG) {
                err.println("warning: " + source.path() + ": " + (warnings[0] - MAX_WARNINGS_PER_LOG)
                        + " more problems not shown");
            }
            if (result.unreadable() != null) {
                err.println("sparkscope analyze: " + result.unreadable());
                unusable++;
                continue;
            }
            if (!result.hasApplication()) {
                err.println("warning: " + source.path() + ": no Spark application events found; skipped");
                unusable++;
                continue;
            }
            analyzed++;
            AppSnapshot snapshot = result.snapshot();
            List<Finding> findings = result.findings(diagnoser::diagnose);
            WhatIfResult what = whatIf ? ExecutorWhatIf.analyze(snapshot) : null;
            if (json) {
                SnapshotJson.writeOpen(g, snapshot, qs, findings, withTasks);
                g.writeStringField("platform", Platform.of(snapshot).describe());
                g.writeFieldName("efficiency");
                EfficiencyJson.write(g, Efficiency.of(snapshot), prices);
                if (what != null) {
                    g.writeFieldName("whatIf");
                    WhatIfJson.write(g, what, whatIfExtras(what, WhatIfCost.of(snapshot, what, prices)));
                }
                g.writeEndObject();
                g.flush();
            } else {
                out.println(TextReport.render(snapshot, findings, topStages, null, prices));
                if (what != null) {
                    out.println(whatIfText(what, WhatIfCost.of(snapshot, what, prices)));
                }
            }
        }
        if (json) {
            if (array) {
                g.writeEndArray();
            }
            g.close();
            out.println();
        }
        if (analyzed == 0) {
            err.println("sparkscope analyze: no application could be analyzed in " + paths);
            return 1;
        }
        if (unusable > 0) {
            err.println("analyzed " + analyzed + " application(s); " + unusable + " log(s) skipped");
        }
        return 0;
    }

    /** What the CLI adds to {@link WhatIfJson}: the caveats as their codes, and the curve priced. */
    private static Map<String, Object> whatIfExtras(WhatIfResult r, WhatIfCost cost) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("caveats", r.caveats().stream().map(Enum::name).toList());
        m.put("cost", EfficiencyJson.whatIf(cost));
        return m;
    }

    static String whatIfText(WhatIfResult r) {
        return whatIfText(r, null);
    }

    /** @param cost the curve priced, or null for the time alone */
    static String whatIfText(WhatIfResult r, WhatIfCost cost) {
        StringBuilder b = new StringBuilder();
        String unit = r.local() ? "cores" : "executors";
        b.append(String.format(Locale.ROOT, "What-if (%s: tasks replayed into slots, %s order)%n", unit,
                r.order() == io.sparkscope.core.analysis.whatif.TaskOrder.LONGEST_FIRST ? "longest-first" : "launch"));
        String shape = r.local() ? r.actualSlots() + " driver cores (local mode)"
                : r.actualExecutors() + " executors × " + r.coresPerExecutor() + " cores = " + r.actualSlots() + " slots";
        b.append(String.format(Locale.ROOT, "  actual: %s, %s; the model replays it in %s (error %+.1f %%)%n", shape,
                seconds(r.actualDurationMs()), seconds(r.estimatedActualMs()), r.relativeError() * 100));
        b.append(String.format(Locale.ROOT, "  driver-only time %s (unchanged by executors); critical path %s; ideal %s%n",
                seconds(r.driverTimeMs()), seconds(r.criticalPathMs()), seconds(r.idealMs())));
        String costHead = cost == null ? "" : cost.priced() ? "cost" : "core-hours";
        b.append(String.format(Locale.ROOT, "  %5s %-9s %6s        %10s  %-15s  %s%n", "", "", "", "estimate",
                "vs actual count", costHead));
        for (int i = 0; i < r.curve().size(); i++) {
            WhatIfPoint p = r.curve().get(i);
            double change = r.estimatedActualMs() == 0 ? 0
                    : 100.0 * (p.estimatedWallMs() - r.estimatedActualMs()) / r.estimatedActualMs();
            String costText = "";
            if (cost != null && i < cost.points().size()) {
                WhatIfCost.Point c = cost.points().get(i);
                costText = (cost.priced() ? EfficiencyText.money(c.cost(), cost.prices().currency())
                        : EfficiencyText.hours(c.cost())) + " (" + EfficiencyText.signedPercent(c.costChange()) + ")";
            }
            b.append(String.format(Locale.ROOT, "  %5d %-9s %6d slots  %10s  %+6.1f %%        %s%s%n", p.executors(),
                    unit, p.slots(), seconds(p.estimatedWallMs()), change, costText, p.actual() ? "  (actual)" : ""));
        }
        if (cost != null) {
            b.append("  conclusion: ").append(EfficiencyText.conclusion(cost, r.local())).append(System.lineSeparator());
        }
        if (!r.caveats().isEmpty()) {
            b.append("  caveats: ").append(r.caveats().stream().map(c -> switch (c) {
                case TASKS_RECONSTRUCTED -> r.reconstructedTasks() + " task durations rebuilt from quantiles";
                case CORES_INFERRED -> "cores not reported, inferred from task concurrency";
                case EXECUTORS_VARIED -> "executor count varied; the peak is used";
                case INCOMPLETE_APPLICATION -> "application incomplete";
                case CONCURRENT_JOBS -> "concurrent jobs simulated together";
                case NO_TASKS -> "no tasks ran";
                case SLOTS_CAPPED -> "more slots than tasks: simulated with one slot per task (same estimate)";
            }).collect(java.util.stream.Collectors.joining("; "))).append(System.lineSeparator());
        }
        return b.toString();
    }

    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    private double[] parseQuantiles() {
        if (quantiles == null || quantiles.isEmpty()) {
            return TaskDistributions.SPARK_DEFAULT_QUANTILES;
        }
        double[] qs = new double[quantiles.size()];
        for (int i = 0; i < qs.length; i++) {
            String raw = quantiles.get(i).trim();
            try {
                qs[i] = Double.parseDouble(raw);
            } catch (NumberFormatException e) {
                throw new Main.UsageError("--quantiles: '" + raw + "' is not a number");
            }
            if (!(qs[i] >= 0 && qs[i] <= 1)) {
                throw new Main.UsageError("--quantiles: " + raw + " is outside [0, 1]");
            }
        }
        return Arrays.copyOf(qs, qs.length);
    }
}
