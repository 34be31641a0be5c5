package io.sparkscope.server.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.cli.DatabaseOptions;
import io.sparkscope.core.text.Units;
import io.sparkscope.store.ingest.DatabaseErrors;
import io.sparkscope.store.prune.Pruner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code prune}: removes applications older than a duration, or with {@code --keep-findings} only their task rows,
 * in short transactions (see {@link Pruner}). Exit code 0 when done, 2 for a usage error or a database that cannot be
 * reached or fails midway (what was committed before stays removed; running again finishes the rest).
 */
@Command(name = "prune", mixinStandardHelpOptions = true,
        description = "Remove applications that ended more than --older-than ago (by Spark's end time, or the last "
                + "event's time for one that never ended), or with --keep-findings only their per-task rows, in "
                + "short transactions that do not hold up a running server or listeners. Task rows are kept by "
                + "month of application start: a past month whose applications are all that old goes whole.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
                "0:done",
                "2:usage error, or a database error"})
public final class PruneCommand implements Callable<Integer> {
    @Option(names = "--older-than", required = true, paramLabel = "<duration>",
            description = "Age of what goes: a number and h, d or w, e.g. 90d, 12h, 2w.")
    String olderThan;

    @Option(names = "--keep-findings",
            description = "Keep the applications, their stages, jobs, executors, statistics and findings (the search "
                    + "and application pages stay); remove only their task rows (the task table and timeline of "
                    + "their stages become empty).")
    boolean keepFindings;

    @Option(names = "--dry-run", description = "Count what would be removed; change nothing.")
    boolean dryRun;

    @Option(names = "--batch-size", paramLabel = "N", defaultValue = "10000",
            description = "Task rows deleted per transaction; whole applications go N/100 (at least 1) per "
                    + "transaction (default: ${DEFAULT-VALUE}).")
    int batchSize = 10_000;

    @Mixin
    DatabaseOptions db;

    private static final Pattern DURATION = Pattern.compile("(\\d{1,7})\\s*([hdw])");

    /** A clear progress line at most this often, and the last one always. */
    private static final long PROGRESS_EVERY_NS = 2_000_000_000L;

    @Override
    public Integer call() {
        Duration age = age(olderThan);
        if (batchSize < 1 || batchSize > 1_000_000) {
            throw new Main.UsageError("--batch-size: " + batchSize + " is outside 1…1000000");
        }
        PrintStream err = System.err;
        long cutoff = System.currentTimeMillis() - age.toMillis();
        Pruner.Scope scope = keepFindings ? Pruner.Scope.TASK_ROWS : Pruner.Scope.APPLICATIONS;
        String before = Instant.ofEpochMilli(cutoff).truncatedTo(ChronoUnit.SECONDS).toString();
        long started = System.nanoTime();
        try (HikariDataSource ds = db.open(2)) {
            Pruner pruner = new Pruner(ds, new Pruner.Options(cutoff, scope, batchSize, dryRun));
            long[] lastLine = {System.nanoTime()};
            Pruner.Tally t = pruner.run(soFar -> {
                long now = System.nanoTime();
                if (now - lastLine[0] >= PROGRESS_EVERY_NS || soFar.applications() == soFar.candidates()) {
                    lastLine[0] = now;
                    err.printf(Locale.ROOT, "[%,d/%,d applications] %,d task rows%s%n", soFar.applications(),
                            soFar.candidates(), soFar.taskRows(), dryRun ? " counted" : " removed");
                }
            });
            for (Pruner.PartitionDrop d : pruner.partitionDrops()) {
                err.println(partitionLine(d, dryRun));
            }
            err.println(summary(t, scope, dryRun, before, (System.nanoTime() - started) / 1e9));
            return 0;
        } catch (SQLException e) {
            err.println("sparkscope prune: " + (DatabaseErrors.unavailable(e) ? "lost the database " : "failed on ")
                    + db.url() + ": " + DatabaseErrors.reason(e)
                    + (dryRun ? "" : "; what was committed stays removed, run it again to finish"));
            return 2;
        }
    }

    static String summary(Pruner.Tally t, Pruner.Scope scope, boolean dryRun, String before, double seconds) {
        String apps = scope == Pruner.Scope.APPLICATIONS
                ? String.format(Locale.ROOT, "%,d application(s) that ended before %s", t.applications(), before)
                : String.format(Locale.ROOT, "the task rows of %,d application(s) that ended before %s (applications"
                        + " and findings kept)", t.applications(), before);
        return String.format(Locale.ROOT, "%s %s; %,d task rows and %,d other rows; ≈ %s %s (estimate: PostgreSQL "
                        + "reuses the space, VACUUM FULL gives it back to the system); %,d transaction(s), %.1f s",
                dryRun ? "dry run: would remove" : "pruned", apps, t.taskRows(), t.otherRows(), Units.bytes(t.bytes()),
                dryRun ? "would be freed" : "freed", t.transactions(), seconds);
    }

    /** What happened to one whole month of task rows (see {@link Pruner.PartitionDrop}). */
    static String partitionLine(Pruner.PartitionDrop d, boolean dryRun) {
        if (!d.dropped()) {
            return "task partition " + d.name() + ": the task table stayed busy, its rows went one by one instead";
        }
        return String.format(Locale.ROOT, "task partition %s %s whole: %s%,d task rows, %s", d.name(),
                dryRun ? "would be dropped" : "dropped", dryRun ? "≈ " : "", d.taskRows(), Units.bytes(d.bytes()));
    }

    /** {@code --older-than}: a whole number of hours, days or weeks. */
    static Duration age(String value) {
        Matcher m = DURATION.matcher(value == null ? "" : value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new Main.UsageError("--older-than: \"" + value + "\" is not a duration; use e.g. 90d, 12h, 2w");
        }
        long n = Long.parseLong(m.group(1));
        if (n == 0) {
            throw new Main.UsageError("--older-than: \"" + value + "\" would remove everything; give at least 1h");
        }
        return switch (m.group(2)) {
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> Duration.ofDays(7 * n);
        };
    }
}
