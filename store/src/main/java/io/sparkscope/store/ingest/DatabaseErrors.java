package io.sparkscope.store.ingest;

import java.io.EOFException;
import java.net.SocketException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;

/**
 * Tells "the database is not there" (stop, spool, retry later) from "the database refused this one write" (report it,
 * go on with the next), and says either in one line.
 */
public final class DatabaseErrors {
    /**
     * SQLSTATEs that mean the database cannot be used at all, whatever is written: class 08 (connection exception)
     * and 28 (authorisation) are matched by their class; here the rest: server shutting down or starting
     * (57P01–57P03), too many connections (53300), database does not exist (3D000).
     */
    private static final Set<String> UNAVAILABLE_STATES = Set.of("57P01", "57P02", "57P03", "53300", "3D000");

    /** Cause chains are short; the bound only guards against a cycle. */
    private static final int MAX_DEPTH = 20;

    private DatabaseErrors() {
    }

    /** Whether {@code t} says the database is unreachable or refuses every connection (not this one statement). */
    public static boolean unavailable(Throwable t) {
        int depth = 0;
        for (Throwable x = t; x != null && depth++ < MAX_DEPTH; x = x.getCause()) {
            if (x instanceof SQLTransientConnectionException || x instanceof SQLNonTransientConnectionException
                    || x instanceof SocketException || x instanceof EOFException) {
                return true;
            }
            if (x instanceof SQLException e) {
                for (SQLException n = e; n != null && depth++ < MAX_DEPTH; n = n.getNextException()) {
                    if (unavailableState(n.getSQLState())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean unavailableState(String state) {
        return state != null && (state.startsWith("08") || state.startsWith("28") || UNAVAILABLE_STATES.contains(state));
    }

    /**
     * One line for a user: the database's own message where there is one (the last of a batch's chained exceptions,
     * the connection error under a pool's timeout), without the statement text or the detail lines that follow it.
     */
    public static String reason(Throwable t) {
        Throwable best = t;
        int depth = 0;
        for (Throwable x = t; x != null && depth++ < MAX_DEPTH; x = x.getCause()) {
            if (x instanceof SQLException e) {
                best = e;
                for (SQLException n = e.getNextException(); n != null && depth++ < MAX_DEPTH; n = n.getNextException()) {
                    best = n;
                }
            }
        }
        String m = best.getMessage();
        if (m == null || m.isBlank()) {
            m = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
        }
        return firstLine(m);
    }

    static String firstLine(String s) {
        int nl = s.indexOf('\n');
        String line = (nl < 0 ? s : s.substring(0, nl)).strip();
        return line.length() > 500 ? line.substring(0, 500) + " …" : line;
    }
}
