package io.sparkscope.core.event;

/**
 * Why a task ended. {@code kind} is Spark's reason name as it appears in event logs ("Success", "ExceptionFailure",
 * "FetchFailed", "TaskKilled", "ExecutorLostFailure", "Resubmitted", "TaskResultLost", "TaskCommitDenied",
 * "UnknownReason").
 *
 * @param description one-line description (exception class and message, killed reason …), null for success
 * @param stackTrace  the full stack trace text when Spark reported one, else null
 */
public record TaskEndReason(String kind, String description, String stackTrace) {
    public static final TaskEndReason SUCCESS = new TaskEndReason("Success", null, null);

    public boolean isSuccess() {
        return "Success".equals(kind);
    }

    /** Spark counts killed and commit-denied tasks as killed, every other non-success as failed. */
    public boolean isKilled() {
        return "TaskKilled".equals(kind) || "TaskCommitDenied".equals(kind);
    }

    public boolean isFailure() {
        return !isSuccess() && !isKilled();
    }

    /**
     * First line of a possibly multi-line text, marked " …" when cut: descriptions stay one line. Both adapters (event
     * log and live listener) describe reasons with it, so the two give the same text.
     */
    public static String firstLine(String s) {
        if (s == null) {
            return null;
        }
        String t = s.strip();
        int nl = t.indexOf('\n');
        if (nl >= 0) {
            t = t.substring(0, nl).stripTrailing() + " …";
        }
        return t;
    }
}
