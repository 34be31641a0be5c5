package io.sparkscope.server.web.model;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.efficiency.TunedWhatIf;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.RecommendedSettings;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.query.HistoryQuery;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The settings to submit a job's next run with ({@code sparkscope tune}, {@code /api/v1/tune}, {@code /tune}): its
 * latest stored run, the advice of that run's findings merged ({@link RecommendedSettings}), and what the executor
 * what-if predicts with them ({@link TunedWhatIf}).
 *
 * @param jobKey   the job
 * @param run      its newest stored run, whose findings the settings come from
 * @param settings the merged advice
 * @param whatIf   today's and the predicted time and cost
 */
public record JobTuning(String jobKey, HistoryQuery.Run run, RecommendedSettings settings, TunedWhatIf whatIf) {

    /** The one-line error for a job with no stored run (or a key no run has). */
    public static String noRun(String jobKey) {
        return "no stored run of job '" + jobKey + "' (see the job keys with GET /api/v1/jobs or on /history)";
    }

    /** The tuning of the job's newest stored run; empty when it has none. */
    public static Optional<JobTuning> load(DataSource ds, String jobKey, Prices prices) throws SQLException {
        List<HistoryQuery.Run> newest = new HistoryQuery(ds).runs(jobKey, 1);
        if (newest.isEmpty()) {
            return Optional.empty();
        }
        HistoryQuery.Run run = newest.get(0);
        SnapshotReader reader = new SnapshotReader(ds);
        Optional<AppSnapshot> snapshot = reader.read(run.appId(), run.attemptId());
        if (snapshot.isEmpty()) {
            return Optional.empty(); // removed (pruned) between the two reads
        }
        List<Finding> findings = reader.findings(run.appId(), run.attemptId());
        RecommendedSettings settings = RecommendedSettings.of(findings, snapshot.get());
        return Optional.of(new JobTuning(jobKey, run, settings,
                TunedWhatIf.of(snapshot.get(), settings.values(), prices)));
    }
}
