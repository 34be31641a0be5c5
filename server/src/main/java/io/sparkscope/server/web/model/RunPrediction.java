package io.sparkscope.server.web.model;

import io.sparkscope.server.web.text.Fmt;
import io.sparkscope.core.analysis.prediction.KeyStagePredictor;
import io.sparkscope.core.analysis.prediction.Prediction;
import io.sparkscope.core.analysis.prediction.PredictionWarning;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.server.web.http.WebException;
import io.sparkscope.store.SnapshotReader;
import io.sparkscope.store.query.HistoryQuery;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Key-stage run-time prediction for a job, from its stored runs: the newest {@link #MAX_RUNS} complete runs of that
 * job key that measured input bytes, each read back with {@link SnapshotReader}.
 *
 * @param prediction   the prediction
 * @param usedRuns     runs trained on
 * @param skippedRuns  runs of the job not used: incomplete, or no input bytes measured (outliers left out of the
 *                     fit are in {@link Prediction#leftOut})
 */
public record RunPrediction(Prediction prediction, int usedRuns, int skippedRuns) {
    /** Newest runs trained on: a snapshot read is a full application, so the history's 500 would be slow. */
    public static final int MAX_RUNS = 50;
    /** Largest input size accepted (1 EB): beyond it the arithmetic, not the model, is the question. */
    public static final long MAX_INPUT_BYTES = 1L << 60;

    /**
     * @throws WebException 404 when the job has no run; 422 when no run can be trained on
     */
    public static RunPrediction of(DataSource ds, HistoryQuery history, String jobKey, long inputBytes)
            throws SQLException {
        List<HistoryQuery.Run> runs = history.runs(jobKey, MAX_RUNS);
        if (runs.isEmpty()) {
            throw WebException.notFound("no run of job '" + jobKey + "' in the database");
        }
        String name = runs.get(runs.size() - 1).name();
        SnapshotReader reader = new SnapshotReader(ds);
        List<AppSnapshot> usable = new ArrayList<>();
        int skipped = 0;
        for (HistoryQuery.Run r : runs) {
            if (!r.complete()) {
                skipped++;
                continue;
            }
            Optional<AppSnapshot> s = reader.read(r.appId(), r.attemptId());
            if (s.isEmpty() || KeyStagePredictor.inputBytes(s.get()) <= 0) {
                skipped++;
                continue;
            }
            usable.add(s.get());
        }
        if (usable.isEmpty()) {
            throw new WebException(422, null, "none of the " + runs.size() + " stored runs of '" + name
                    + "' is complete with measured input bytes; nothing to predict from");
        }
        try {
            Prediction p = KeyStagePredictor.predict(usable, inputBytes);
            return new RunPrediction(p, p.trainingRuns(), skipped);
        } catch (IllegalArgumentException e) {
            // the stored job keys were derived by another version than the one reading the runs now
            throw new WebException(422, null, "the stored runs of '" + name + "' cannot be fitted together: "
                    + e.getMessage() + "; run sparkscope reanalyze");
        }
    }

    /** One sentence per warning, with the numbers that triggered it. */
    public static String describe(PredictionWarning w, Prediction p) {
        return switch (w) {
            case POOR_FIT -> "A key stage's line fits its runs poorly (R² below "
                    + KeyStagePredictor.MIN_R2 + "); its time does not follow the input size linearly.";
            case EXTRAPOLATION -> "The size asked is more than " + fmt(KeyStagePredictor.MAX_EXTRAPOLATION)
                    + "× the largest input seen (" + Fmt.bytes(p.maxInputBytes()) + "): an extrapolation.";
            case FEW_RUNS -> "Only " + Fmt.count(p.trainingRuns(), "run") + " to learn from; any line fits two points.";
            case INPUT_NOT_VARIED -> "Every run read the same input size (" + Fmt.bytes(p.maxInputBytes())
                    + "); nothing to fit, so the prediction is the mean run.";
            case STAGES_DIFFER -> "Not every stage ran in every run; a missing stage counted 0 ms in that run.";
            case NO_KEY_STAGES -> "No stage's time grows with the input; the prediction does not depend on the size.";
            case CLAMPED_AT_ZERO -> "A key stage's line falls below 0 ms at this size and was clamped to 0.";
            case OUTLIER_RUNS -> leftOutSentence(p);
        };
    }

    /** "Left out of the fit: app-1 (1.0 GiB) took 15.0 s where the other runs predict 5.2 s (a cold first run?)." */
    static String leftOutSentence(Prediction p) {
        StringBuilder b = new StringBuilder("Left out of the fit as ")
                .append(p.leftOut().size() == 1 ? "an outlier" : "outliers").append(": ");
        for (int i = 0; i < p.leftOut().size(); i++) {
            Prediction.LeftOut o = p.leftOut().get(i);
            b.append(i == 0 ? "" : "; ").append(o.appId()).append(o.attemptId() == null ? "" : "/" + o.attemptId())
                    .append(" (").append(Fmt.bytes(o.inputBytes())).append(") took ").append(Fmt.duration(o.durationMs()))
                    .append(" where the other runs predict ").append(Fmt.duration(o.expectedMs()));
        }
        return b.append(" — a first run on cold caches, or a run that did something else.").toString();
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.format(Locale.ROOT, "%.1f", d);
    }
}
