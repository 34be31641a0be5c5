package io.sparkscope.core.eventlog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.sql.SqlMetricIds;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A task's "Accumulables" as read by a decoder thread that cannot know yet which SQL metrics are running: which
 * updates count depends on the SQL events before the line, and those are folded in order on another thread. So the
 * decoder keeps the ids and updates it read, and the folding thread picks from them with {@link #replay}, by the
 * same rules as the single-threaded reader ({@code TaskDecoder.sqlAccumulables}): an accumulable counts when its
 * "ID" is a running SQL metric and its "Update" an integer (or a string holding one); an update that is neither
 * gets its warning only when the single-threaded reader would have looked at it.
 *
 * <p>Kept compactly: one pair of longs per object, id and update read (names, values and the rest are skipped).
 */
final class DeferredAccumulables {
    private static final long OBJECT = 0;
    private static final long ID = 1;
    private static final long ID_NOT_INTEGER = 2;
    private static final long UPDATE = 3;
    private static final long UPDATE_TEXT = 4;

    /** Pairs (kind, value); for {@link #UPDATE_TEXT} the value is the index in {@link #texts}. */
    private final long[] ops;
    private final int length;
    private final List<String> texts;
    /** How many warnings the line had when its accumulables were read: where replayed warnings go. */
    final int warningIndex;

    private DeferredAccumulables(long[] ops, int length, List<String> texts, int warningIndex) {
        this.ops = ops;
        this.length = length;
        this.texts = texts;
        this.warningIndex = warningIndex;
    }

    /**
     * Reads the value (parser on it, left on its end); null when it can give nothing: not an array, or no
     * "Update" in it.
     */
    static DeferredAccumulables read(JsonParser p, int warningIndex) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return null;
        }
        long[] ops = new long[16];
        int n = 0;
        boolean anyUpdate = false;
        List<String> texts = null;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY && t != null; t = p.nextToken()) {
            if (t != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            if (n + 2 > ops.length) {
                ops = Arrays.copyOf(ops, ops.length * 2);
            }
            ops[n++] = OBJECT;
            ops[n++] = 0;
            for (JsonToken f = p.nextToken(); f == JsonToken.FIELD_NAME; f = p.nextToken()) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                long kind;
                long value = 0;
                if ("ID".equals(field)) {
                    boolean integer = v == JsonToken.VALUE_NUMBER_INT
                            && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
                    kind = integer ? ID : ID_NOT_INTEGER;
                    value = integer ? p.getLongValue() : 0;
                    if (!integer) {
                        p.skipChildren();
                    }
                } else if ("Update".equals(field)) {
                    if (v == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                        kind = UPDATE;
                        value = p.getLongValue();
                    } else if (v == JsonToken.VALUE_STRING) {
                        kind = UPDATE_TEXT;
                        if (texts == null) {
                            texts = new ArrayList<>(2);
                        }
                        value = texts.size();
                        texts.add(p.getText());
                    } else {
                        p.skipChildren(); // the single-threaded reader ignores such an update too
                        continue;
                    }
                    anyUpdate = true;
                } else {
                    p.skipChildren();
                    continue;
                }
                if (n + 2 > ops.length) {
                    ops = Arrays.copyOf(ops, ops.length * 2);
                }
                ops[n++] = kind;
                ops[n++] = value;
            }
        }
        return anyUpdate ? new DeferredAccumulables(ops, n, texts, warningIndex) : null;
    }

    /**
     * The updates of running SQL metrics, in the log's order, as the single-threaded reader picks them; warnings
     * for updates that are no integer go to {@code checks} (appended).
     */
    SparkEvent.AccumUpdates replay(SqlMetricIds running, FieldChecks checks) {
        long[] ids = new long[8];
        long[] values = new long[8];
        int kept = 0;
        boolean inObject = false;
        boolean skipping = false;
        boolean idSeen = false;
        boolean wanted = false;
        boolean hasUpdate = false;
        long id = 0;
        long update = 0;
        for (int i = 0; i <= length; i += 2) {
            boolean objectEnds = i == length || ops[i] == OBJECT;
            if (objectEnds) {
                if (inObject && idSeen && wanted && hasUpdate) {
                    if (kept == ids.length) {
                        ids = Arrays.copyOf(ids, kept * 2);
                        values = Arrays.copyOf(values, kept * 2);
                    }
                    ids[kept] = id;
                    values[kept] = update;
                    kept++;
                }
                inObject = true;
                skipping = idSeen = wanted = hasUpdate = false;
                id = update = 0;
                continue;
            }
            if (skipping) {
                continue;
            }
            long kind = ops[i];
            long value = ops[i + 1];
            if (kind == ID || kind == ID_NOT_INTEGER) {
                idSeen = true;
                if (kind == ID) {
                    id = value;
                    wanted = running.contains(value);
                }
                skipping = !wanted; // the single-threaded reader skips the object's other fields here
            } else if (kind == UPDATE) {
                update = value;
                hasUpdate = true;
            } else {
                String text = texts.get((int) value);
                try {
                    update = Long.parseLong(text);
                    hasUpdate = true;
                } catch (NumberFormatException notAnInteger) {
                    checks.invalid("Accumulables", "SQL metric update " + FieldChecks.quoted(text)
                            + " is not an integer", "; this update is ignored");
                }
            }
        }
        return kept == 0 ? SparkEvent.AccumUpdates.NONE
                : new SparkEvent.AccumUpdates(Arrays.copyOf(ids, kept), Arrays.copyOf(values, kept));
    }
}
