package io.sparkscope.listener;

/**
 * The database answered but refused this snapshot (a constraint violation, a value it cannot hold, …). Unlike an
 * outage, retrying the same snapshot will not help: it is spooled for a later {@code import --spool} and recording
 * goes on.
 */
final class SnapshotRejectedException extends Exception {
    SnapshotRejectedException(String message) {
        super(message, null, false, false);
    }
}
