package io.sparkscope.core.eventlog;

/**
 * A line that is valid JSON but not a usable event (no "Event" field, or a field Spark requires is missing).
 * Carries only the one-line reason; the reader adds file and line.
 */
final class InvalidEventException extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidEventException(String message) {
        super(message, null, false, false);
    }
}
