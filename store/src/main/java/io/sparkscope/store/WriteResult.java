package io.sparkscope.store;

/**
 * @param appPk   the application's surrogate key (0 when skipped before it existed; for
 *                {@link Outcome#OTHER_APPLICATION}, the other application's)
 * @param outcome whether the snapshot was written, and whether that changed anything
 * @param rows    child rows shipped (application row excluded); shipped rows that equal the stored ones are not
 *                rewritten, so this is no measure of change: see {@link #changed()}
 */
public record WriteResult(long appPk, Outcome outcome, long rows) {

    public enum Outcome {
        /** Written, and at least one stored row was inserted, updated or deleted. */
        WRITTEN,
        /** Written, and the database already held exactly this: no row was inserted, updated or deleted. */
        UNCHANGED,
        /**
         * The database already holds a newer snapshot of this application (more events, or complete while this one
         * is not): a late retry or a stale spool entry must not roll it back.
         */
        SKIPPED_STALE,
        /**
         * Not written: the database holds another application under this id and attempt (it started at another
         * time: two applications given one {@code spark.app.id}). One id stands for one application; the two are
         * never merged.
         */
        OTHER_APPLICATION
    }

    /** The database now holds this snapshot: it was written, or it was what the database held already. */
    public boolean written() {
        return outcome == Outcome.WRITTEN || outcome == Outcome.UNCHANGED;
    }

    /** The write changed what is stored. */
    public boolean changed() {
        return outcome == Outcome.WRITTEN;
    }
}
