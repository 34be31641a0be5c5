package io.sparkscope.server.cli;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.eventlog.EventLogException;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.TaskDistributions;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.report.SnapshotJson;
import io.sparkscope.core.report.TextReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code analyze <file-or-dir>…}: reads Spark event logs and prints the report, or JSON. */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = "Analyze Spark event logs (plain, .lz4, .snappy, .zstd, rolling eventlog_v2_* directories, "
                + ".inprogress) and print a report per application.")
public final class AnalyzeCommand implements Callable<Integer> {
    /** Warnings printed per log before the rest are only counted: a broken log must not flood the terminal. */
    private static final int MAX_WARNINGS_PER_LOG = 20;

    @Parameters(arity = "1..*", paramLabel = "<file-or-dir>", description = "Event log files or directories of them.")
    List<Path> paths;

    @Option(names = "--json", description = "Print one JSON object per application (an array when several).")
    boolean json;

    @Option(names = "--quantiles", paramLabel = "q,…", split = ",",
            description = "Task quantiles, each in [0,1] (default: Spark's 0.05,0.25,0.5,0.75,0.95).")
    List<String> quantiles;

    @Option(names = "--tasks", description = "With --json, include each stage's kept tasks (slowest and failed).")
    boolean withTasks;

    @Option(names = "--tasks-per-stage", paramLabel = "N", defaultValue = "100",
            description = "Slowest tasks kept per stage (default: ${DEFAULT-VALUE}).")
    int tasksPerStage;

    @Option(names = "--top", paramLabel = "N", defaultValue = "5",
            description = "Slowest stages listed in the text report (default: ${DEFAULT-VALUE}).")
    int topStages;

    @Option(names = "--heuristics-config", paramLabel = "<file>",
            description = "Properties file overriding heuristic thresholds (keys as in sparkscope-heuristics.properties).")
    Path heuristicsConfig;

    @Override
    public Integer call() {
        double[] qs = parseQuantiles();
        Diagnoser diagnoser = diagnoser(heuristicsConfig);
        if (tasksPerStage < 0) {
            throw new Main.UsageError("--tasks-per-stage must be >= 0, got " + tasksPerStage);
        }
        RecorderOptions options = RecorderOptions.DEFAULTS.withQuantiles(qs).withTasksPerStage(tasksPerStage);
        PrintStream out = System.out;
        PrintStream err = System.err;

        List<EventLogSource> sources = new ArrayList<>();
        for (Path p : paths) {
            try {
                sources.addAll(EventLogReader.discover(p));
            } catch (EventLogException e) {
                throw new Main.UsageError(e.getMessage());
            }
        }

        List<Map<String, Object>> jsonApps = new ArrayList<>();
        int analyzed = 0;
        int unusable = 0;
        for (EventLogSource source : sources) {
            int[] warnings = {0};
            EventLogAnalysis.Result result = EventLogAnalysis.analyze(source, options, problem -> {
                if (warnings[0]++ < MAX_WARNINGS_PER_LOG) {
                    err.println("warning: " + problem);
                }
            });
            if (warnings[0] > MAX_WARNINGS_PER_LOG) {
                err.println("warning: " + source.path() + ": " + (warnings[0] - MAX_WARNINGS_PER_LOG)
                        + " more problems not shown");
            }
            if (!result.hasApplication()) {
                err.println("warning: " + source.path() + ": no Spark application events found; skipped");
                unusable++;
                continue;
            }
            analyzed++;
            List<Finding> findings = diagnoser.diagnose(result.snapshot());
            if (json) {
                jsonApps.add(SnapshotJson.toMap(result.snapshot(), qs, findings, withTasks));
            } else {
                out.println(TextReport.render(result.snapshot(), findings, topStages, null));
            }
        }
        if (json) {
            out.println(SnapshotJson.toJson(jsonApps.size() == 1 ? jsonApps.get(0) : jsonApps));
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

    /** Shared by every command that runs heuristics: a bad thresholds file is a one-line usage error. */
    static Diagnoser diagnoser(Path file) {
        if (file == null) {
            return Diagnoser.defaults();
        }
        if (!java.nio.file.Files.isReadable(file)) {
            throw new Main.UsageError("--heuristics-config: cannot read " + file);
        }
        try {
            return Diagnoser.withFile(file);
        } catch (java.io.IOException e) {
            throw new Main.UsageError("--heuristics-config: cannot read " + file + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new Main.UsageError("--heuristics-config: " + e.getMessage());
        }
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
