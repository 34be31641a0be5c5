package io.sparkscope.server.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.SnapshotWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code reanalyze}: runs the heuristics again over every stored application, e.g. after the thresholds changed.
 * Findings are stored (not computed per page view) so pages stay fast; this is how they follow new thresholds.
 */
@Command(name = "reanalyze", mixinStandardHelpOptions = true,
        description = "Recompute the findings of every stored application with the current heuristics and "
                + "thresholds (run it after changing them).")
public final class ReanalyzeCommand implements Callable<Integer> {
    @Mixin
    DatabaseOptions db;

    @Option(names = "--heuristics-config", paramLabel = "<file>",
            description = "Properties file overriding heuristic thresholds.")
    Path heuristicsConfig;

    @Option(names = "--regression-factor", paramLabel = "X", defaultValue = "1.5",
            description = "A complete run this many times slower (wall or task time) than the median of the previous "
                    + "10 complete runs of its name gets a Regression finding: LOW, HIGH at 2× (default: ${DEFAULT-VALUE}).")
    double regressionFactor;

    @Override
    public Integer call() throws SQLException {
        ImportCommand.checkRegressionFactor(regressionFactor);
        Diagnoser diagnoser = AnalyzeCommand.diagnoser(heuristicsConfig);
        SnapshotWriter writer = new SnapshotWriter();
        int done = 0;
        int failed = 0;
        try (HikariDataSource ds = db.open(2)) {
            for (String[] key : appKeys(ds)) {
                String attempt = key[1] == null || key[1].isEmpty() ? null : key[1];
                try {
                    Optional<AppSnapshot> s = SnapshotReader.read(ds, key[0], attempt);
                    if (s.isPresent()) {
                        List<Finding> findings = ImportCommand.withRegression(ds, s.get(),
                                diagnoser.diagnose(s.get()), regressionFactor, System.err);
                        writer.overwrite(ds, s.get(), findings);
                        done++;
                    }
                } catch (SQLException | RuntimeException e) {
                    failed++;
                    System.err.println("warning: " + key[0] + ": " + DatabaseOptions.firstLine(e.getMessage()));
                }
            }
        }
        System.err.println("reanalyzed " + done + " application(s)" + (failed > 0 ? ", " + failed + " failed" : ""));
        return failed > 0 && done == 0 ? 1 : 0;
    }

    private static List<String[]> appKeys(HikariDataSource ds) throws SQLException {
        List<String[]> keys = new ArrayList<>();
        try (Connection c = ds.getConnection();
             PreparedStatement st = c.prepareStatement("SELECT app_id, attempt_id FROM application ORDER BY app_pk");
             ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                keys.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        }
        return keys;
    }
}
