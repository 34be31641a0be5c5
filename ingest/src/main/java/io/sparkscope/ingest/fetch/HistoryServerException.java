package io.sparkscope.ingest.fetch;

/**
 * The History Server could not give what was asked: unreachable, or it answered with an error status. The message is
 * one line and names the URL; no stack trace is kept because the cause is the server's answer, not our code.
 */
public final class HistoryServerException extends RuntimeException {
    /** HTTP status of the answer, or 0 when there was none (connection refused, timeout, …). */
    private final int status;

    public HistoryServerException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }

    /** 4xx: the server understood and refused (unknown application, endpoint missing, not authorised). */
    public boolean refused() {
        return status >= 400 && status < 500;
    }
}
