package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonProcessingException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The problems met while reading one log, and how they are worded. A damaged log can have a problem on every one
 * of millions of lines: the caller's consumer and the read's statistics get the first
 * {@value EventLogReader#MAX_KEPT_PROBLEMS}, and one closing line counts the rest, so memory and output stay
 * bounded. Kept apart from {@link LogRead} so the reading loop says what went wrong, not how it is kept.
 */
final class ProblemLog {
    private final Consumer<String> sink;
    private final List<String> kept = new ArrayList<>();
    private long suppressed;

    ProblemLog(Consumer<String> sink) {
        this.sink = sink;
    }

    void report(String message) {
        if (kept.size() >= EventLogReader.MAX_KEPT_PROBLEMS) {
            suppressed++;
            return;
        }
        kept.add(message);
        sink.accept(message);
    }

    /**
     * Says how many problems were left out since the last such note (nothing when none were), so that a read that
     * goes on (the watcher's) counts each left-out problem once.
     */
    void noteSuppressed(Path log) {
        if (suppressed > 0) {
            String note = log + ": " + suppressed + " more problems not shown";
            kept.add(note);
            sink.accept(note);
            suppressed = 0;
        }
    }

    /** The problems reported so far (the live list: the read's statistics copy it). */
    List<String> kept() {
        return kept;
    }

    /** What a line that could not be decoded is reported as. */
    static String describe(Throwable e) {
        if (e instanceof TokenBudget.EventTooLargeException) {
            return e.getMessage();
        }
        if (e instanceof JsonProcessingException j) {
            String where = j.getLocation() == null ? "" : " at column " + j.getLocation().getColumnNr();
            return "malformed JSON" + where + ": " + Json.firstLine(j.getOriginalMessage());
        }
        if (e instanceof StackOverflowError) {
            return "JSON nested too deeply";
        }
        if (e instanceof IOException) {
            return "malformed JSON: " + message(e);
        }
        return "cannot decode event: " + e.getClass().getSimpleName() + ": " + message(e);
    }

    /** An exception's message on one line, or its class name when it has none. */
    static String message(Throwable e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : Json.firstLine(m);
    }

    /** A byte count as people write it: in GiB or MiB when it is a whole number of them. */
    static String bytes(long n) {
        if (n >= 1L << 30 && n % (1L << 30) == 0) {
            return (n >> 30) + " GiB";
        }
        if (n >= 1L << 20 && n % (1L << 20) == 0) {
            return (n >> 20) + " MiB";
        }
        return n + " bytes";
    }
}
