package io.sparkscope.server.cli;

import io.sparkscope.cli.AnalysisOptions;
import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.cli.DatabaseOptions;
import io.sparkscope.store.ingest.AppKey;
import io.sparkscope.store.ingest.DatabaseErrors;
import io.sparkscope.store.ingest.IngestResult;
import io.sparkscope.store.ingest.IngestService;
import io.sparkscope.store.ingest.StoredApplications;
import io.sparkscope.store.prune.Pruner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.PrintStream;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code reanalyze}: runs the heuristics again over every stored application, e.g. after the thresholds changed.
 * Findings are stored (not computed per page view) so pages stay fast; this is how they follow new thresholds. Each
 * stored snapshot goes through the store's {@link IngestService} as a new one would. Exit code 0 when every
 * application was reanalysed, 1 when some were not (each named), 2 for a usage error or a database that cannot be
 * reached (at the start or mid-run: the run then stops at once).
 */
@Command(name = "reanalyze", mixinStandardHelpOptions = true,
        description = "Recompute the findings of every stored application with the current heuristics and "
                + "thresholds (run it after changing them).",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
                "0:every application was reanalyzed",
                "1:some failed, each named on its own line",
                "2:usage error, or the database could not be reached"})
public final class ReanalyzeCommand implements Callable<Integer> {
    @Mixin
    DatabaseOptions db;

    @Mixin
    AnalysisOptions.Heuristics heuristics;

    @Mixin
    AnalysisOptions.Regression regression;

    @Override
    public Integer call() {
        heuristics.diagnoser();
        regression.factor();
        PrintStream err = System.err;
        int changed = 0;
        int unchanged = 0;
        int failed = 0;
        int kept = 0;
        try (HikariDataSource ds = db.open(2)) {
            IngestService ingest = AnalysisOptions.ingest(ds, heuristics, regression, err).build();
            List<AppKey> keys;
            Set<AppKey> pruned;
            try {
                keys = StoredApplications.keys(ds);
                // their findings were computed from task rows `prune --keep-findings` removed: run again without
                // them, the heuristics would lose their evidence
                pruned = Pruner.tasksPruned(ds);
            } catch (SQLException e) {
                throw new Main.UsageError("cannot list the stored applications: " + DatabaseErrors.reason(e));
            }
            for (AppKey key : keys) {
                if (pruned.contains(key)) {
                    kept++;
                    continue;
                }
                IngestResult r = ingest.reingest(key);
                switch (r.outcome()) {
                    case WRITTEN -> changed++;
                    case UNCHANGED, SKIPPED_STALE -> unchanged++;
                    case FAILED -> {
                        failed++;
                        err.println(key + ": not reanalysed: " + r.reason());
                    }
                    case DATABASE_UNAVAILABLE -> {
                        err.printf(Locale.ROOT, "sparkscope reanalyze: lost the database %s at %s: %s; stopped after"
                                + " %d of %d application(s)%n", db.url(), key, r.reason(), changed + unchanged + failed,
                                keys.size());
                        return 2;
                    }
                }
            }
        }
        err.printf(Locale.ROOT, "reanalyzed %d application(s): %d changed, %d unchanged, %d failed%s%n",
                changed + unchanged, changed, unchanged, failed, kept == 0 ? ""
                        : "; " + kept + " with pruned task rows kept their findings");
        return failed > 0 ? 1 : 0;
    }
}
