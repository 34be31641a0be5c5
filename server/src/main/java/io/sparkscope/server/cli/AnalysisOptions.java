package io.sparkscope.server.cli;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.store.ingest.IngestService;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The analysis options, each declared once: {@code --heuristics-config}, {@code --tasks-per-stage} and
 * {@code --regression-factor}. Commands that store applications ({@code import}, {@code fetch}) mix in all three;
 * {@code analyze} (no database, so no previous runs) and {@code reanalyze} (snapshots already recorded) mix in the
 * parts that mean something to them.
 */
final class AnalysisOptions {
    @Mixin
    Heuristics heuristics = new Heuristics();

    @Mixin
    TasksPerStage tasks = new TasksPerStage();

    @Mixin
    Regression regression = new Regression();

    Diagnoser diagnoser() {
        return heuristics.diagnoser();
    }

    RecorderOptions recorderOptions() {
        return tasks.recorderOptions();
    }

    /**
     * An ingest service running these heuristics with this regression factor, its warnings on {@code err} (one line
     * each); the caller adds what is its own (notifications, the replace rule) and builds it.
     */
    static IngestService.Builder ingest(DataSource ds, Heuristics heuristics, Regression regression, PrintStream err) {
        Diagnoser diagnoser = heuristics.diagnoser();
        return IngestService.builder(ds)
                .heuristics(diagnoser::diagnose)
                .regressionFactor(regression.factor())
                .warnings(w -> err.println("warning: " + w));
    }

    /** Fails with a usage error for any value out of range, before anything is read or written. */
    void check() {
        heuristics.diagnoser();
        tasks.recorderOptions();
        regression.factor();
    }

    static final class Heuristics {
        @Option(names = "--heuristics-config", paramLabel = "<file>",
                description = "Properties file overriding heuristic thresholds (keys as in "
                        + "sparkscope-heuristics.properties).")
        Path file;

        private Diagnoser diagnoser;

        /** The heuristics with the file applied; a file that cannot be read or holds a bad key is a usage error. */
        Diagnoser diagnoser() {
            if (diagnoser == null) {
                diagnoser = load(file);
            }
            return diagnoser;
        }

        private static Diagnoser load(Path file) {
            if (file == null) {
                return Diagnoser.defaults();
            }
            if (!Files.isReadable(file)) {
                throw new Main.UsageError("--heuristics-config: cannot read " + file);
            }
            try {
                return Diagnoser.withFile(file);
            } catch (IOException e) {
                throw new Main.UsageError("--heuristics-config: cannot read " + file + ": " + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new Main.UsageError("--heuristics-config: " + e.getMessage());
            }
        }
    }

    static final class TasksPerStage {
        @Option(names = "--tasks-per-stage", paramLabel = "N", defaultValue = "10000",
                description = "Tasks kept in detail per stage: all up to N, past it the slowest N/2 and a uniform "
                        + "sample (default: ${DEFAULT-VALUE}).")
        int tasksPerStage = 10_000;

        RecorderOptions recorderOptions() {
            if (tasksPerStage < 0) {
                throw new Main.UsageError("--tasks-per-stage must be >= 0, got " + tasksPerStage);
            }
            return RecorderOptions.DEFAULTS.withTasksPerStage(tasksPerStage);
        }
    }

    static final class Regression {
        @Option(names = "--regression-factor", paramLabel = "X", defaultValue = "1.5",
                description = "A complete run this many times slower (wall or task time) than the median of the "
                        + "previous 10 complete runs of its name that started before it gets a Regression finding: "
                        + "LOW, HIGH at 2× (default: ${DEFAULT-VALUE}).")
        double factor = IngestService.DEFAULT_REGRESSION_FACTOR;

        double factor() {
            if (!(factor >= 1) || Double.isInfinite(factor)) {
                throw new Main.UsageError("--regression-factor must be a number of at least 1, got " + factor);
            }
            return factor;
        }
    }
}
