package io.sparkscope.ingest.fetch;

import io.sparkscope.core.event.TaskEndReason;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the {@code errorMessage} of Spark's REST {@code TaskData} back into the reason kind and one-line description
 * the event-log reader gives the same task ({@code TaskEndReason}).
 *
 * <p>The REST API has no reason kind, only text: Spark's {@code TaskFailedReason.toErrorString} for failed tasks
 * (each kind has its own fixed opening, except {@code ExceptionFailure}, whose text is the exception's stack trace)
 * and the bare kill reason for killed ones. The openings are parsed; text with no known opening is an exception, as
 * {@code ExceptionFailure} is the only kind whose text starts with the exception's class name.
 */
final class TaskErrors {
    private static final Pattern FETCH_FAILED = Pattern.compile(
            "FetchFailed\\((?:BlockManagerId\\(([^,]*), ([^,]*), (-?\\d+)[^)]*\\)|null), shuffleId=(-?\\d+), "
                    + "mapIndex=([^,]*), mapId=(-?\\d+), reduceId=(-?\\d+), message=\\n?(.*?)\\n?\\)\\s*",
            Pattern.DOTALL);
    private static final Pattern COMMIT_DENIED = Pattern.compile(
            "TaskCommitDenied \\(Driver denied task commit\\) for job: (-?\\d+), partition: (-?\\d+), "
                    + "attemptNumber: (-?\\d+).*", Pattern.DOTALL);
    private static final Pattern EXECUTOR_LOST = Pattern.compile(
            "ExecutorLostFailure \\(executor (.*?) exited [^)]*\\)(?: Reason: (.*))?", Pattern.DOTALL);

    private TaskErrors() {
    }

    /**
     * @param status       the REST task status: SUCCESS, FAILED, KILLED
     * @param errorMessage the REST {@code errorMessage}, null for successful tasks
     */
    static TaskEndReason reason(String status, String errorMessage) {
        if ("SUCCESS".equals(status)) {
            return TaskEndReason.SUCCESS;
        }
        String text = errorMessage == null ? "" : errorMessage;
        if ("KILLED".equals(status)) {
            Matcher denied = COMMIT_DENIED.matcher(text);
            if (denied.matches()) {
                return new TaskEndReason("TaskCommitDenied", "driver denied task commit for job " + denied.group(1)
                        + ", partition " + denied.group(2) + ", attempt " + denied.group(3), null);
            }
            // Spark's REST gives a killed task's bare reason, without the "TaskKilled (…)" of toErrorString.
            return new TaskEndReason("TaskKilled", TaskEndReason.firstLine(text.isEmpty() ? "unknown reason" : text),
                    null);
        }
        if (text.startsWith("Resubmitted (")) {
            return new TaskEndReason("Resubmitted", "resubmitted due to lost executor", null);
        }
        if (text.startsWith("TaskResultLost (")) {
            return new TaskEndReason("TaskResultLost", "result lost from block manager", null);
        }
        if (text.equals("UnknownReason")) {
            return new TaskEndReason("UnknownReason", "unknown reason", null);
        }
        if (text.startsWith("TaskKilled (")) {
            return new TaskEndReason("TaskKilled",
                    TaskEndReason.firstLine(text.substring("TaskKilled (".length(), text.length() - 1)), null);
        }
        Matcher lost = EXECUTOR_LOST.matcher(text);
        if (lost.matches()) {
            String why = lost.group(2);
            return new TaskEndReason("ExecutorLostFailure",
                    why == null ? "executor " + lost.group(1) + " lost" : TaskEndReason.firstLine(why), null);
        }
        Matcher fetch = FETCH_FAILED.matcher(text);
        if (fetch.matches()) {
            return fetchFailed(fetch);
        }
        return exceptionFailure(text);
    }

    private static TaskEndReason fetchFailed(Matcher m) {
        String address = m.group(1) == null ? "null"
                : "BlockManagerId(" + m.group(1) + ", " + m.group(2) + ", " + m.group(3) + ")";
        // Spark prints an unknown map index (Int.MinValue) as "Unknown"; the event log carries the number.
        String mapIndex = "Unknown".equals(m.group(5)) ? String.valueOf(Integer.MIN_VALUE) : m.group(5);
        String message = m.group(8);
        String description = "FetchFailed(" + address + ", shuffleId=" + m.group(4) + ", mapIndex=" + mapIndex
                + ", mapId=" + m.group(6) + ", reduceId=" + m.group(7) + ", message="
                + TaskEndReason.firstLine(message) + ")";
        return new TaskEndReason("FetchFailed", description, message.indexOf('\n') >= 0 ? message : null);
    }

    /**
     * An exception's stack trace: its first line is {@code Class: message}; the description is that line, marked
     * cut (" …") only when the message itself went on over more lines, as the event-log reader marks it.
     */
    private static TaskEndReason exceptionFailure(String text) {
        String stripped = text.strip();
        if (stripped.isEmpty()) {
            return new TaskEndReason("ExceptionFailure", "", null);
        }
        int nl = stripped.indexOf('\n');
        if (nl < 0) {
            return new TaskEndReason("ExceptionFailure", stripped, null);
        }
        String first = stripped.substring(0, nl).stripTrailing();
        String next = stripped.substring(nl + 1);
        boolean messageGoesOn = !next.startsWith("\tat ") && !next.startsWith("Caused by:")
                && !next.startsWith("\t...") && !next.strip().isEmpty();
        // The stack trace as Spark wrote it (its trailing newline included), so a fetched task's error text equals
        // the one the event log gives.
        return new TaskEndReason("ExceptionFailure", messageGoesOn ? first + " …" : first, text);
    }
}
