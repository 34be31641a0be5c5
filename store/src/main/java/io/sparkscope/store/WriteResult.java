package io.sparkscope.store;

/**
 * @param appPk   the application's surrogate key (0 when skipped before it existed)
 * @param outcome whether the snapshot was written
 * @param rows    child rows upserted (application row excluded)
 */
public record WriteResult(long appPk, Outcome outcome, long rows) {

    public enum Outcome {
        WRITTEN,
        /**
         * The database already holds a newer snapshot of this application (more events, or complete while this one
         * is not): a late retry or a stale spool entry must not roll it back.
         */
        SKIPPED_STALE
    }

    public boolean written() {
        return outcome == Outcome.WRITTEN;
    }
}
