package io.sparkscope.store.ingest;

import io.sparkscope.core.heuristics.Finding;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link IngestService#ingest} did with one snapshot.
 *
 * @param app              the application attempt
 * @param outcome          what happened
 * @param findings         the findings stored with it (Regression included); empty unless written or unchanged
 * @param regression       its Regression finding, if it has one
 * @param laterRunsUpdated later runs of the same application whose Regression finding changed because this run now
 *                         belongs to what they are compared with (an older run stored late)
 * @param reason           one line saying why, for {@link Outcome#FAILED} and {@link Outcome#DATABASE_UNAVAILABLE};
 *                         else null
 */
public record IngestResult(AppKey app, Outcome outcome, List<Finding> findings, Optional<Finding> regression,
                           List<AppKey> laterRunsUpdated, String reason) {

    public enum Outcome {
        /** Stored, and something in the database changed. */
        WRITTEN,
        /** The database already held exactly this snapshot and these findings. */
        UNCHANGED,
        /**
         * Not written: the database holds a newer snapshot of the application (more events, or complete while this
         * one is not). The application is stored; this older picture of it is not.
         */
        SKIPPED_STALE,
        /** The database refused this application (a constraint, a bad value, …): others may still go in. */
        FAILED,
        /** The database cannot be reached or refuses every connection: nothing more will go in now. */
        DATABASE_UNAVAILABLE
    }

    public IngestResult {
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(outcome, "outcome");
        findings = List.copyOf(findings);
        laterRunsUpdated = List.copyOf(laterRunsUpdated);
    }

    static IngestResult failed(AppKey app, Throwable t) {
        return new IngestResult(app, DatabaseErrors.unavailable(t) ? Outcome.DATABASE_UNAVAILABLE : Outcome.FAILED,
                List.of(), Optional.empty(), List.of(), DatabaseErrors.reason(t));
    }

    /** The database holds the application: this snapshot (written or unchanged) or a newer one. */
    public boolean stored() {
        return outcome == Outcome.WRITTEN || outcome == Outcome.UNCHANGED || outcome == Outcome.SKIPPED_STALE;
    }

    public boolean databaseUnavailable() {
        return outcome == Outcome.DATABASE_UNAVAILABLE;
    }
}
