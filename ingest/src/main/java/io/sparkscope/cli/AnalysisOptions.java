package io.sparkscope.cli;

import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.store.ingest.IngestService;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The analysis options, each declared once with its check and help text: {@code --heuristics-config},
 * {@code --tasks-per-stage} and {@code --regression-factor}. Commands that store applications ({@code import},
 * {@code fetch}, {@code watch}, the Spark archive import) mix in all three; {@code analyze} (no database, so no
 * previous runs) and {@code reanalyze} (snapshots already recorded) mix in the parts that mean something to them.
 * A bad value is a {@link UsageError} naming the option.
 */
public final class AnalysisOptions {
    @Mixin
    Heuristics heuristics = new Heuristics();

    @Mixin
    TasksPerStage tasks = new TasksPerStage();

    @Mixin
    Regression regression = new Regression();

    public Heuristics heuristics() {
        return heuristics;
    }

    public Regression regression() {
        return regression;
    }

    public Diagnoser diagnoser() {
        return heuristics.diagnoser();
    }

    public RecorderOptions recorderOptions() {
        return tasks.recorderOptions();
    }

    public int tasksPerStage() {
        return tasks.tasksPerStage();
    }

    /**
     * An ingest service running these heuristics with this regression factor, its warnings on {@code err} (one line
     * each); the caller adds what is its own (notifications, the replace rule) and builds it.
     */
    public static IngestService.Builder ingest(DataSource ds, Heuristics heuristics, Regression regression,
                                               PrintStream err) {
        Diagnoser diagnoser = heuristics.diagnoser();
        return IngestService.builder(ds)
                .heuristics(diagnoser::diagnose)
                .regressionFactor(regression.factor())
                .warnings(w -> err.println("warning: " + w));
    }

    /** Fails with a usage error for any value out of range, before anything is read or written. */
    public void check() {
        heuristics.diagnoser();
        tasks.recorderOptions();
        regression.factor();
    }

    /** {@code --heuristics-config}: threshold overrides from a properties file. */
    public static final class Heuristics {
        @Option(names = "--heuristics-config", paramLabel = "<file>",
                description = "Properties file overriding heuristic thresholds (keys as `sparkscope heuristics` "
                        + "lists them).")
        Path file;

        private Map<String, String> overrides;
        private Diagnoser diagnoser;

        /** The file given, or null for the defaults. */
        public Path file() {
            return file;
        }

        /**
         * The file's settings, keys and values trimmed, checked against the known keys (empty without a file). A
         * map rather than the file, for a caller that ships the settings elsewhere (the archive import's tasks run
         * on executors, where the driver's file is not).
         */
        public Map<String, String> overrides() {
            if (overrides == null) {
                overrides = read(file);
                diagnoser = check(overrides, file);
            }
            return overrides;
        }

        /** Where the overrides come from, as findings and errors name it; null without a file. */
        public String source() {
            return file == null ? null : file.toString();
        }

        /** The heuristics with the file applied; a file that cannot be read or holds a bad key is a usage error. */
        public Diagnoser diagnoser() {
            overrides();
            return diagnoser;
        }

        private static Map<String, String> read(Path file) {
            Map<String, String> values = new TreeMap<>();
            if (file == null) {
                return values;
            }
            if (!Files.isReadable(file)) {
                throw new UsageError("--heuristics-config: cannot read " + file);
            }
            Properties props = new Properties();
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                props.load(r);
            } catch (IOException | IllegalArgumentException e) {
                // IllegalArgumentException: a malformed \\uXXXX escape in the file
                throw new UsageError("--heuristics-config: cannot read " + file + ": " + e.getMessage());
            }
            for (String name : props.stringPropertyNames()) {
                values.put(name.trim(), props.getProperty(name).trim());
            }
            return values;
        }

        private static Diagnoser check(Map<String, String> overrides, Path file) {
            if (file == null) {
                return Diagnoser.defaults();
            }
            try {
                return Diagnoser.withOverrides(overrides, file.toString());
            } catch (IllegalArgumentException e) {
                throw new UsageError("--heuristics-config: " + e.getMessage());
            }
        }
    }

    /** {@code --tasks-per-stage}: how many tasks of each stage are kept in detail. */
    public static final class TasksPerStage {
        @Option(names = "--tasks-per-stage", paramLabel = "N", defaultValue = "10000",
                description = "Tasks kept in detail per stage: all up to N, past it the slowest N/2 and a uniform "
                        + "sample (default: ${DEFAULT-VALUE}).")
        int tasksPerStage = 10_000;

        public int tasksPerStage() {
            recorderOptions();
            return tasksPerStage;
        }

        public RecorderOptions recorderOptions() {
            if (tasksPerStage < 0) {
                throw new UsageError("--tasks-per-stage must be >= 0, got " + tasksPerStage);
            }
            return RecorderOptions.DEFAULTS.withTasksPerStage(tasksPerStage);
        }
    }

    /** {@code --regression-factor}: how much slower than its previous runs a run must be to be a regression. */
    public static final class Regression {
        @Option(names = "--regression-factor", paramLabel = "X", defaultValue = "1.5",
                description = "A complete run this many times slower (wall or task time) than the median of the "
                        + "previous 10 complete runs of the same job (name, user, program and cluster manager, or "
                        + "spark.sparkscope.jobKey) that started before it gets a Regression finding: LOW, HIGH at "
                        + "2× (default: ${DEFAULT-VALUE}).")
        double factor = IngestService.DEFAULT_REGRESSION_FACTOR;

        public double factor() {
            if (!(factor >= 1) || Double.isInfinite(factor)) {
                throw new UsageError("--regression-factor must be a number of at least 1, got " + factor);
            }
            return factor;
        }
    }
}
