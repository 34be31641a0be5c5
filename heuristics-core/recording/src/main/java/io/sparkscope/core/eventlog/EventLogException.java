package io.sparkscope.core.eventlog;

/**
 * An expected, user-facing failure to find or open event logs (missing path, unreadable file, directory without
 * logs). Checked, and its message is one line naming the path, so a command line can print it as is.
 */
public final class EventLogException extends Exception {
    private static final long serialVersionUID = 1L;

    public EventLogException(String message) {
        super(message, null, false, false);
    }
}
