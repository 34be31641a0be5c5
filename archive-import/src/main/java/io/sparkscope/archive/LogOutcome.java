package io.sparkscope.archive;

import java.io.Serializable;

/**
 * What a task did with one log, sent back to the driver for the summary.
 *
 * @param shown     the log's location, credentials masked, for the driver log
 * @param reason    one line for {@link Kind#FAILED}, {@link Kind#NOT_TRIED} and {@link Kind#NOT_A_LOG}; else null
 * @param bytes     bytes read (0 when the log was not read)
 * @param events    events of the stored snapshot
 * @param task      the partition that handled it
 */
record LogOutcome(String shown, Kind kind, String appId, String reason, long bytes, long events, int task)
        implements Serializable {

    enum Kind {
        /** Stored, and the database changed. */
        WRITTEN,
        /** Read, and the database already held exactly this application. */
        UNCHANGED,
        /** Not read: stored to its end earlier with the size and time it has now (a rerun, or a watcher). */
        STORED_ALREADY,
        /** Read, not written: the database holds a newer snapshot of the application. */
        STALE,
        /** Not an event log (or a rolling directory without event files): skipped, as {@code import} skips it. */
        NOT_A_LOG,
        /** Not stored: unreadable, no application in it, or refused by the database. */
        FAILED,
        /** A watcher is reading it at this moment; it stores it. */
        BUSY,
        /** Not tried: the database was lost before this log's turn. */
        NOT_TRIED
    }

    /** The database holds the application (this snapshot or a newer one). */
    boolean stored() {
        return kind == Kind.WRITTEN || kind == Kind.UNCHANGED || kind == Kind.STORED_ALREADY || kind == Kind.STALE;
    }
}
