package io.sparkscope.server.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.cli.DatabaseOptions;
import io.sparkscope.server.web.model.JobTuning;
import io.sparkscope.server.web.model.TuneFile;
import io.sparkscope.store.ingest.DatabaseErrors;
import io.sparkscope.store.query.HistoryQuery;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code tune --job <key>}: the settings recommended for a job's latest stored run, merged across its findings, as a
 * Spark properties file (each setting with the value in force, why, the saving expected, and the time and cost the
 * what-if predicts) and as {@code --conf} options. Exit code 0 when written, 2 for a job with no stored run, a usage
 * error or a database that cannot be reached.
 */
@Command(name = "tune", mixinStandardHelpOptions = true,
        description = "Write the Spark settings recommended for a job's latest stored run: a properties file for "
                + "spark-submit --properties-file (comments say why, the saving and the predicted time and cost), "
                + "or --conf options.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
                "0:done",
                "2:unknown job, usage error, or a database error"})
public final class TuneCommand implements Callable<Integer> {
    @Option(names = "--job", required = true, paramLabel = "<key>",
            description = "The job key, as /history and GET /api/v1/jobs show it (or spark.sparkscope.jobKey);"
                    + " an application name works too when its runs form one job.")
    String job;

    @Option(names = {"-o", "--output"}, paramLabel = "<file>",
            description = "Write the properties file here (default: print it). The --conf options are then printed.")
    Path output;

    @Option(names = "--format", paramLabel = "<format>", defaultValue = "properties",
            description = "What to print: properties (the file) or conf (spark-submit --conf options, one a line)"
                    + " (default: ${DEFAULT-VALUE}).")
    String format;

    @Mixin
    DatabaseOptions db;

    @Mixin
    CostOptions cost;

    @Override
    public Integer call() {
        if (!format.equals("properties") && !format.equals("conf")) {
            throw new Main.UsageError("--format: \"" + format + "\" is not one of properties, conf");
        }
        if (job.isBlank()) {
            throw new Main.UsageError("--job: give a job key");
        }
        PrintStream out = System.out;
        JobTuning tuning;
        try (HikariDataSource ds = db.open(2)) {
            tuning = load(ds);
        } catch (SQLException e) {
            throw new Main.UsageError("cannot read job '" + job + "' from " + db.url() + ": "
                    + DatabaseErrors.reason(e));
        }
        if (output != null) {
            try {
                Files.writeString(output, TuneFile.properties(tuning), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new Main.UsageError("--output: cannot write " + output + ": " + e.getMessage());
            }
            System.err.println("wrote " + tuning.settings().settings().size() + " setting(s) for job '" + job
                    + "' to " + output);
        }
        if (format.equals("conf") || output != null) {
            TuneFile.confLines(tuning).forEach(out::println);
        } else {
            out.print(TuneFile.properties(tuning));
        }
        return 0;
    }

    /**
     * The tuning of the job the user named. A new user knows the application's name, not the job key Sparkscope
     * built from it (name, user, program, cluster manager), so a name whose runs form one job is taken as that job;
     * a name shared by several jobs gets the keys to choose from.
     */
    private JobTuning load(HikariDataSource ds) throws SQLException {
        Optional<JobTuning> byKey = JobTuning.load(ds, job, cost.prices());
        if (byKey.isPresent()) {
            return byKey.get();
        }
        List<String> keys = new HistoryQuery(ds).jobKeysOfName(job);
        if (keys.size() == 1) {
            return JobTuning.load(ds, keys.get(0), cost.prices())
                    .orElseThrow(() -> new Main.UsageError(JobTuning.noRun(job)));
        }
        if (keys.size() > 1) {
            throw new Main.UsageError("'" + job + "' names " + keys.size() + " jobs; choose one with --job: "
                    + String.join("; ", keys.stream().limit(10).toList()));
        }
        throw new Main.UsageError(JobTuning.noRun(job));
    }
}
