package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads numeric fields with Spark's own ranges and collects a one-line warning for each value outside them.
 * Spark's reader takes whatever number a log holds (a wrapped int, a NaN turned into 0, a launch time of 0 that
 * becomes a 50-year task); here each such value is named, with its event type and field, and the caller maps it
 * to the record's "unknown" value or skips the event.
 *
 * <p>Warnings are held per line ({@link #begin}) and only handed out once the line decoded, so a line that turns
 * out to be malformed JSON gives one message, not several.
 *
 * <p>Valid values: ids, indices and attempt numbers are non-negative and fit their Java type (values above
 * 2³¹−1 do not wrap); times are epoch milliseconds in (0, {@link #MAX_TIME}]; sizes and metric values are
 * non-negative. A JSON number written as a whole float ({@code 5.0}) is accepted, as Spark does; a string,
 * null, boolean, object, array, NaN, ±Infinity or a fraction is not a number.
 */
final class FieldChecks {
    /** Returned by the readers for an invalid value (after the warning is recorded). */
    static final long INVALID = Long.MIN_VALUE;
    /** The latest time accepted: 2200-01-01T00:00:00Z. Anything later is a corrupted value, not a clock. */
    static final long MAX_TIME = 7_258_118_400_000L;
    /** Shown values are cut to this many characters, so a warning stays short. */
    private static final int SHOWN_CHARS = 40;

    private String event = "event";
    private final List<String> warnings = new ArrayList<>(2);
    private String pending;
    /** Where the streaming checks put what is wrong: one array per read, not one per value (the hot path). */
    private final String[] scratch = new String[1];

    /** Starts a line: its earlier warnings are dropped. */
    void begin() {
        warnings.clear();
        event = "event";
        pending = null;
    }

    /** Starts a line with what another decoder's checks found in it: its event, pending problem and warnings. */
    void restore(String event, String pending, List<String> warnings) {
        begin();
        this.event = event;
        this.pending = pending;
        if (!warnings.isEmpty()) { // most lines have none; an empty addAll still copies an array
            this.warnings.addAll(warnings);
        }
    }

    /** Moves the warnings from index {@code from} on to index {@code to}, keeping their order. */
    void moveWarnings(int from, int to) {
        if (from == to || from == warnings.size()) {
            return;
        }
        List<String> moved = new ArrayList<>(warnings.subList(from, warnings.size()));
        warnings.subList(from, warnings.size()).clear();
        warnings.addAll(to, moved);
    }

    /** A problem a decoder found but {@link Consistency} words (it knows what the value is replaced with). */
    void pending(String problem) {
        pending = problem;
    }

    String pending() {
        return pending;
    }

    void event(String type) {
        event = type;
    }

    String event() {
        return event;
    }

    List<String> warnings() {
        return warnings;
    }

    /** Records {@code <event> field "<name>": <what>; treated as unknown<consequence>}. */
    void invalid(String field, String what, String consequence) {
        warnings.add(event + " field \"" + field + "\": " + what + "; treated as unknown" + consequence);
    }

    /** A free-form warning about this line (no field). */
    void warn(String message) {
        warnings.add(message);
    }

    /** The exception that skips this event, after a warning saying why. */
    InvalidEventException skip(String field, String what) {
        return new InvalidEventException(event + " field \"" + field + "\": " + what
                + "; treated as unknown, so the event is skipped");
    }

    // ---- streaming: the parser is on the value token ----

    /**
     * The value as a long in [{@code min}, {@code max}], else {@link #INVALID} with {@code what[0]} saying what is
     * wrong with it. Records nothing: callers decide between unknown and skip.
     */
    long raw(JsonParser p, long min, long max, String[] what) throws IOException {
        JsonToken t = p.currentToken();
        long v;
        if (t == JsonToken.VALUE_NUMBER_INT) {
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                what[0] = shown(p.getText()) + " is out of range";
                return INVALID;
            }
            v = p.getLongValue();
            if (v == INVALID) { // Long.MIN_VALUE: no field's range holds it, and it is the "invalid" mark here
                what[0] = v + " is out of range";
                return INVALID;
            }
        } else if (t == JsonToken.VALUE_NUMBER_FLOAT) {
            double d = p.getDoubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                what[0] = p.getText() + " is not a number";
                return INVALID;
            }
            if (d != Math.rint(d)) {
                what[0] = shown(p.getText()) + " is not a whole number";
                return INVALID;
            }
            if (d < -0x1p63 || d >= 0x1p63) {
                what[0] = shown(p.getText()) + " is out of range";
                return INVALID;
            }
            v = (long) d;
            if (v == INVALID) {
                what[0] = shown(p.getText()) + " is out of range";
                return INVALID;
            }
        } else {
            what[0] = describeNonNumber(p) + " is not a number";
            return INVALID;
        }
        if (v < min || v > max) {
            what[0] = v < 0 && min >= 0 ? v + " is negative"
                    : v + " is out of range (" + min + " to " + max + ")";
            return INVALID;
        }
        return v;
    }

    /** A non-negative int (id, index, attempt, count), else {@link #INVALID} with {@code what[0]} set. */
    long id(JsonParser p, String[] what) throws IOException {
        return raw(p, 0, Integer.MAX_VALUE, what);
    }

    /** A non-negative long (task id, execution id, size). */
    long nonNegative(JsonParser p, String[] what) throws IOException {
        return raw(p, 0, Long.MAX_VALUE, what);
    }

    /** An epoch-ms time in (0, MAX_TIME]; 0 is not a time here (callers where 0 means absent check it first). */
    long time(JsonParser p, String[] what) throws IOException {
        long v = raw(p, Long.MIN_VALUE, Long.MAX_VALUE, what);
        if (v == INVALID) {
            return INVALID;
        }
        String problem = timeProblem(v);
        if (problem != null) {
            what[0] = problem;
            return INVALID;
        }
        return v;
    }

    /** An int id the event cannot do without: invalid skips the event. */
    int requiredId(JsonParser p, String field) throws IOException, InvalidEventException {
        String[] what = scratch;
        long v = id(p, what);
        if (v == INVALID) {
            throw skip(field, what[0]);
        }
        return (int) v;
    }

    /** A long id the event cannot do without: invalid skips the event. */
    long requiredLongId(JsonParser p, String field) throws IOException, InvalidEventException {
        String[] what = scratch;
        long v = nonNegative(p, what);
        if (v == INVALID) {
            throw skip(field, what[0]);
        }
        return v;
    }

    /** A time whose record has an unknown marker: invalid gives {@code unknown} after a warning. */
    long timeOr(JsonParser p, String field, long unknown) throws IOException {
        String[] what = scratch;
        long v = time(p, what);
        if (v == INVALID) {
            invalid(field, what[0], "");
            return unknown;
        }
        return v;
    }

    /** A task metric: invalid is 0, what Spark's reader gives a metric the log does not carry. */
    long metric(JsonParser p, String field) throws IOException {
        String[] what = scratch;
        long v = nonNegative(p, what);
        if (v == INVALID) {
            invalid(field, what[0], " (0, as for a metric the log does not carry)");
            return 0;
        }
        return v;
    }

    static String timeProblem(long v) {
        if (v < 0) {
            return v + " is negative";
        }
        if (v == 0) {
            return "0 is not a time";
        }
        if (v > MAX_TIME) {
            return v + " is not a time (after the year 2200)";
        }
        return null;
    }

    private static String describeNonNumber(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            p.skipChildren();
            return t == JsonToken.START_OBJECT ? "an object" : "an array";
        }
        if (t == JsonToken.VALUE_STRING) {
            return quoted(p.getText());
        }
        return t == null ? "nothing" : p.getText();
    }

    // ---- tree: absent and JSON null are the caller's business ----

    /** As {@link #raw(JsonParser, long, long, String[])} for a tree value. */
    static long raw(JsonNode v, long min, long max, String[] what) {
        long x;
        if (v.isIntegralNumber()) {
            if (!v.canConvertToLong()) {
                what[0] = shown(v.asText()) + " is out of range";
                return INVALID;
            }
            x = v.longValue();
            if (x == INVALID) {
                what[0] = x + " is out of range";
                return INVALID;
            }
        } else if (v.isNumber()) {
            double d = v.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                what[0] = v.asText() + " is not a number";
                return INVALID;
            }
            if (d != Math.rint(d)) {
                what[0] = shown(v.asText()) + " is not a whole number";
                return INVALID;
            }
            if (d < -0x1p63 || d >= 0x1p63) {
                what[0] = shown(v.asText()) + " is out of range";
                return INVALID;
            }
            x = (long) d;
            if (x == INVALID) {
                what[0] = shown(v.asText()) + " is out of range";
                return INVALID;
            }
        } else {
            what[0] = (v.isTextual() ? quoted(v.asText()) : v.isObject() ? "an object" : v.isArray() ? "an array"
                    : v.asText()) + " is not a number";
            return INVALID;
        }
        if (x < min || x > max) {
            what[0] = x < 0 && min >= 0 ? x + " is negative" : x + " is out of range (" + min + " to " + max + ")";
            return INVALID;
        }
        return x;
    }

    /** A tree time field; absent or JSON null gives {@code absent} silently, invalid gives it with a warning. */
    long timeOf(JsonNode n, String field, long absent) {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || v.isNull()) {
            return absent;
        }
        String[] what = new String[1];
        long x = raw(v, Long.MIN_VALUE, Long.MAX_VALUE, what);
        String problem = x == INVALID ? what[0] : timeProblem(x);
        if (problem != null) {
            invalid(field, problem, "");
            return absent;
        }
        return x;
    }

    /** A required tree id in [0, max]; absent, null or invalid skips the event. */
    long requiredIdOf(JsonNode n, String field, long max) throws InvalidEventException {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || v.isNull()) {
            throw new InvalidEventException(event + " without " + field);
        }
        String[] what = new String[1];
        long x = raw(v, 0, max, what);
        if (x == INVALID) {
            throw skip(field, what[0]);
        }
        return x;
    }

    /** An optional tree id in [0, max]; absent gives {@code absent} silently, invalid skips the event. */
    long optionalIdOf(JsonNode n, String field, long max, long absent) throws InvalidEventException {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || v.isNull()) {
            return absent;
        }
        String[] what = new String[1];
        long x = raw(v, 0, max, what);
        if (x == INVALID) {
            throw skip(field, what[0]);
        }
        return x;
    }

    /** A tree value in [min, max]; absent gives {@code absent} silently, invalid gives {@code unknown} after a warning. */
    long valueOf(JsonNode n, String field, long min, long max, long absent, long unknown, String consequence) {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || v.isNull()) {
            return absent;
        }
        String[] what = new String[1];
        long x = raw(v, min, max, what);
        if (x == INVALID) {
            invalid(field, what[0], consequence);
            return unknown;
        }
        return x;
    }

    // ---- display ----

    /** A tree value as shown in a warning. */
    static String describe(JsonNode v) {
        if (v == null) {
            return "nothing";
        }
        if (v.isTextual()) {
            return quoted(v.asText());
        }
        return v.isObject() ? "an object" : v.isArray() ? "an array" : shown(v.asText());
    }

    static String quoted(String s) {
        return '"' + shown(s) + '"';
    }

    /** As {@link #quoted(String)}, cut at {@code max} characters (a file name is shown whole). */
    static String quoted(String s, int max) {
        return '"' + shown(s, max) + '"';
    }

    /** A value as shown in a warning: cut, and with control characters escaped so the warning stays one line. */
    static String shown(String s) {
        return shown(s, SHOWN_CHARS);
    }

    static String shown(String s, int max) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(Math.min(s.length(), max) + 8);
        for (int i = 0; i < s.length(); i++) {
            if (sb.length() >= max) {
                return sb.append("…").toString();
            }
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
