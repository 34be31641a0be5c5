package io.sparkscope.server.web.http;

import io.javalin.http.Context;
import io.sparkscope.store.query.AppDetailQuery;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Reads and validates path and query parameters; every failure is a 400 naming the parameter and what was expected.
 */
public final class Params {
    /** Spark application ids (local-…, app-…, application_…, spark-…) and attempt ids: no spaces, no slashes. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:\\-]{1,200}");
    private static final Pattern HEURISTIC = Pattern.compile("[A-Za-z0-9_.\\-]{1,100}");
    private static final Pattern STAGE_NUMBER = Pattern.compile("\\d{1,9}");
    /** Spark's query ids are UUIDs; a little more is accepted, nothing that needs escaping in a path. */
    private static final Pattern QUERY_ID = Pattern.compile("[A-Za-z0-9_\\-]{1,100}");
    private static final int MAX_TEXT = 200;

    private Params() {
    }

    /** The trimmed value, or null when absent or empty (an empty form field means "no filter"). */
    public static String text(Context ctx, String name) {
        return text(Query.of(ctx), name);
    }

    public static String text(Query q, String name) {
        String v = q.first(name);
        if (v == null) {
            return null;
        }
        v = v.strip();
        if (v.isEmpty()) {
            return null;
        }
        if (v.length() > MAX_TEXT) {
            throw WebException.badParam(name, "longer than " + MAX_TEXT + " characters");
        }
        for (int i = 0; i < v.length(); i++) {
            if (Character.isISOControl(v.charAt(i))) {
                throw WebException.badParam(name, "contains a control character");
            }
        }
        return v;
    }

    public static String id(Context ctx, String name) {
        return id(Query.of(ctx), name);
    }

    public static String id(Query q, String name) {
        return checkId(name, text(q, name));
    }

    public static String checkId(String name, String v) {
        if (v != null && !ID.matcher(v).matches()) {
            throw WebException.badParam(name, "'" + v + "' is not an application or attempt id (letters, digits, . _ : -)");
        }
        return v;
    }

    public static String heuristic(Context ctx, String name) {
        return heuristic(Query.of(ctx), name);
    }

    public static String heuristic(Query q, String name) {
        String v = text(q, name);
        if (v != null && !HEURISTIC.matcher(v).matches()) {
            throw WebException.badParam(name, "'" + v + "' is not a heuristic id");
        }
        return v;
    }

    public static <E extends Enum<E>> E enumValue(Context ctx, String name, Class<E> type) {
        return enumValue(Query.of(ctx), name, type);
    }

    public static <E extends Enum<E>> E enumValue(Query q, String name, Class<E> type) {
        String v = text(q, name);
        if (v == null) {
            return null;
        }
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(v)) {
                return e;
            }
        }
        List<String> allowed = new ArrayList<>();
        for (E e : type.getEnumConstants()) {
            allowed.add(e.name().toLowerCase(Locale.ROOT));
        }
        throw WebException.badParam(name, "'" + v + "' is not one of " + String.join(", ", allowed));
    }

    public static int intValue(Context ctx, String name, int dflt, int min, int max) {
        return intValue(Query.of(ctx), name, dflt, min, max);
    }

    public static int intValue(Query q, String name, int dflt, int min, int max) {
        String v = text(q, name);
        if (v == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) {
                throw WebException.badParam(name, n + " is outside " + min + "…" + max);
            }
            return n;
        } catch (NumberFormatException e) {
            throw WebException.badParam(name, "'" + v + "' is not a whole number");
        }
    }

    /** A whole number in {@code min…max}, or null when absent; digit-group separators ({@code _ , space}) are allowed. */
    public static Long longValue(Context ctx, String name, long min, long max) {
        return longValue(Query.of(ctx), name, min, max);
    }

    public static Long longValue(Query q, String name, long min, long max) {
        String v = text(q, name);
        if (v == null) {
            return null;
        }
        String digits = v.replaceAll("[_, ]", "");
        try {
            long n = Long.parseLong(digits);
            if (n < min || n > max) {
                throw WebException.badParam(name, n + " is outside " + min + "…" + max);
            }
            return n;
        } catch (NumberFormatException e) {
            throw WebException.badParam(name, "'" + v + "' is not a whole number");
        }
    }

    /** A number ({@code 2}, {@code 0.5}) in {@code min…max}, or null when absent. */
    public static Double decimal(Context ctx, String name, double min, double max) {
        return decimal(Query.of(ctx), name, min, max);
    }

    public static Double decimal(Query q, String name, double min, double max) {
        String v = text(q, name);
        if (v == null) {
            return null;
        }
        double n;
        try {
            n = Double.parseDouble(v.replaceAll("[_ ]", ""));
        } catch (NumberFormatException e) {
            throw WebException.badParam(name, "'" + v + "' is not a number (e.g. 2 or 0.5)");
        }
        if (!(n >= min && n <= max)) {
            throw WebException.badParam(name, v + " is outside " + min + "…" + max);
        }
        return n;
    }

    /**
     * A size in bytes as a person types it: a number of bytes ({@code 1073741824}, {@code 1_000_000}) or a number with
     * a unit ({@code 1GB}, {@code 512m}, {@code 10 GiB}, {@code 1.5t}; binary units as Spark's, see
     * {@link io.sparkscope.core.text.Units#parseSize}).
     *
     * @throws WebException 400 naming the parameter when it is not a size or outside {@code min…max}
     */
    public static Long size(Context ctx, String name, long min, long max) {
        return size(Query.of(ctx), name, min, max);
    }

    public static Long size(Query q, String name, long min, long max) {
        String v = text(q, name);
        if (v == null) {
            return null;
        }
        long n;
        try {
            n = io.sparkscope.core.text.Units.parseSize(v.replaceAll("[_,\\s]", ""));
        } catch (NumberFormatException e) {
            throw WebException.badParam(name, "'" + v + "' is not a size: give bytes, or a number with a unit"
                    + " such as 512m, 1GB or 10 GiB");
        }
        if (n < min || n > max) {
            throw WebException.badParam(name, "'" + v + "' (" + n + " bytes) is outside " + min + "…" + max
                    + " bytes");
        }
        return n;
    }

    /**
     * A point in time: epoch milliseconds, an ISO-8601 instant or offset date-time ({@code 2026-11-29T10:00:00Z}),
     * a local date-time as HTML's datetime-local input sends it ({@code 2026-11-29T10:00}, read as UTC) or a date
     * ({@code 2026-11-29}, its start; with {@code endOfDay} its last millisecond, so "to 2026-11-29" includes that day).
     */
    public static Long time(Context ctx, String name, boolean endOfDay) {
        return time(Query.of(ctx), name, endOfDay);
    }

    public static Long time(Query q, String name, boolean endOfDay) {
        String v = text(q, name);
        if (v == null) {
            return null;
        }
        if (v.chars().allMatch(Character::isDigit)) {
            if (v.length() > 15) {
                throw WebException.badParam(name, "'" + v + "' is too large for epoch milliseconds");
            }
            return Long.parseLong(v);
        }
        try {
            return OffsetDateTime.parse(v).toInstant().toEpochMilli();
        } catch (DateTimeParseException ignored) {
            // try the next form
        }
        try {
            return Instant.parse(v).toEpochMilli();
        } catch (DateTimeParseException ignored) {
            // try the next form
        }
        try {
            return LocalDateTime.parse(v).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException ignored) {
            // try the next form
        }
        try {
            LocalDate d = LocalDate.parse(v);
            return endOfDay ? d.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli() - 1
                    : d.atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException ignored) {
            throw WebException.badParam(name, "'" + v + "' is not a date: use ISO-8601 (2026-11-29, "
                    + "2026-11-29T10:00:00Z) or epoch milliseconds");
        }
    }

    /**
     * The application a path names: {@code {appId}} and, on the routes that have it, {@code {attemptId}} (absent:
     * null, which the queries read as the newest attempt).
     */
    public static AppDetailQuery.Ref appRef(Context ctx) {
        String appId = checkId("appId", ctx.pathParam("appId"));
        String attemptId = checkId("attemptId", ctx.pathParamMap().get("attemptId"));
        return new AppDetailQuery.Ref(appId, attemptId);
    }

    /** A Structured Streaming query id from the path. */
    public static String queryId(Context ctx) {
        String v = ctx.pathParam("queryId");
        if (!QUERY_ID.matcher(v).matches()) {
            throw WebException.badParam("queryId", "'" + v + "' is not a streaming query id (a UUID)");
        }
        return v;
    }

    /** {@code ?refresh=}: seconds between a live page's updates, 1 to 3600 (default {@code dflt}). */
    public static int refreshSeconds(Context ctx, int dflt) {
        return intValue(ctx, "refresh", dflt, 1, 3600);
    }

    /** A stage id or stage attempt id from the path: a whole number ≥ 0. */
    public static int stageNumber(Context ctx, String name) {
        String raw = ctx.pathParam(name);
        if (!STAGE_NUMBER.matcher(raw).matches()) {
            throw WebException.badParam(name, "'" + raw + "' is not a stage " + (name.equals("stageId") ? "id" : "attempt id")
                    + " (a whole number ≥ 0)");
        }
        return Integer.parseInt(raw);
    }

    /** The value when it is one of {@code allowed} (exactly as written), null when absent. */
    public static String oneOf(Context ctx, String name, String... allowed) {
        return oneOf(Query.of(ctx), name, allowed);
    }

    public static String oneOf(Query q, String name, String... allowed) {
        String v = text(q, name);
        if (v != null && !List.of(allowed).contains(v)) {
            throw WebException.badParam(name, "'" + v + "' is not one of " + String.join(", ", allowed));
        }
        return v;
    }

    /**
     * Comma-separated whole numbers in {@code min…max}, at most {@code maxCount} of them, e.g. {@code executors=2,4,16};
     * null when absent. Empty parts are skipped; none at all is a 400 saying {@code howTo}.
     */
    public static List<Integer> wholeNumbers(Context ctx, String name, int min, int max, int maxCount, String howTo) {
        return wholeNumbers(Query.of(ctx), name, min, max, maxCount, howTo);
    }

    public static List<Integer> wholeNumbers(Query q, String name, int min, int max, int maxCount, String howTo) {
        String raw = text(q, name);
        if (raw == null) {
            return null;
        }
        List<Integer> out = new ArrayList<>();
        for (String part : raw.split(",")) {
            String v = part.strip();
            if (v.isEmpty()) {
                continue;
            }
            int n;
            try {
                n = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw WebException.badParam(name, "'" + v + "' is not a whole number");
            }
            if (n < min || n > max) {
                throw WebException.badParam(name, n + " is outside " + min + "…" + max);
            }
            out.add(n);
        }
        if (out.isEmpty()) {
            throw WebException.badParam(name, howTo);
        }
        if (out.size() > maxCount) {
            throw WebException.badParam(name, "at most " + maxCount + " counts at once");
        }
        return out;
    }

    /** Comma-separated quantiles in [0, 1], e.g. {@code quantiles=0.5,0.95}; {@code absent} when not given. */
    public static double[] quantiles(Context ctx, String name, double[] absent) {
        String raw = text(ctx, name);
        if (raw == null) {
            return absent;
        }
        String[] parts = raw.split(",");
        double[] q = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String v = parts[i].trim();
            try {
                q[i] = Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw WebException.badParam(name, "'" + v + "' is not a number");
            }
            if (!(q[i] >= 0 && q[i] <= 1)) {
                throw WebException.badParam(name, v + " is outside [0, 1]");
            }
        }
        return q;
    }

    /**
     * Applications to put side by side: {@code apps=a,b}, repeated {@code apps=a&apps=b} or both mixed, every value
     * kept in the order given; each "appId" or "appId/attemptId". Between 2 and {@code max} of them, or none at all
     * when {@code noneAllowed} (the compare page then shows its form).
     */
    public static List<AppDetailQuery.Ref> appRefs(Context ctx, String name, boolean noneAllowed, int max) {
        return appRefs(Query.of(ctx), name, noneAllowed, max);
    }

    public static List<AppDetailQuery.Ref> appRefs(Query q, String name, boolean noneAllowed, int max) {
        List<AppDetailQuery.Ref> refs = new ArrayList<>();
        for (String v : q.all(name)) {
            for (String part : v.split(",")) {
                String s = part.strip();
                if (s.isEmpty()) {
                    continue;
                }
                int slash = s.indexOf('/');
                String id = slash < 0 ? s : s.substring(0, slash);
                String attempt = slash < 0 ? null : s.substring(slash + 1);
                refs.add(new AppDetailQuery.Ref(checkId(name, id), checkId(name, attempt)));
            }
        }
        if (refs.isEmpty() && noneAllowed) {
            return refs;
        }
        if (refs.size() < 2) {
            throw WebException.badParam(name, "give two or more application ids, comma-separated");
        }
        if (refs.size() > max) {
            throw WebException.badParam(name, "at most " + max + " runs side by side");
        }
        return refs;
    }
}
