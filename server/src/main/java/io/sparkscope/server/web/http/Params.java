package io.sparkscope.server.web.http;

import io.javalin.http.Context;

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

/** Reads and validates query parameters; every failure is a 400 naming the parameter and what was expected. */
public final class Params {
    /** Spark application ids (local-…, app-…, application_…, spark-…) and attempt ids: no spaces, no slashes. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:\\-]{1,200}");
    private static final Pattern HEURISTIC = Pattern.compile("[A-Za-z0-9_.\\-]{1,100}");
    private static final int MAX_TEXT = 200;

    private Params() {
    }

    /** The trimmed value, or null when absent or empty (an empty form field means "no filter"). */
    public static String text(Context ctx, String name) {
        String v = ctx.queryParam(name);
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
        return checkId(name, text(ctx, name));
    }

    public static String checkId(String name, String v) {
        if (v != null && !ID.matcher(v).matches()) {
            throw WebException.badParam(name, "'" + v + "' is not an application or attempt id (letters, digits, . _ : -)");
        }
        return v;
    }

    public static String heuristic(Context ctx, String name) {
        String v = text(ctx, name);
        if (v != null && !HEURISTIC.matcher(v).matches()) {
            throw WebException.badParam(name, "'" + v + "' is not a heuristic id");
        }
        return v;
    }

    public static <E extends Enum<E>> E enumValue(Context ctx, String name, Class<E> type) {
        String v = text(ctx, name);
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
        String v = text(ctx, name);
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
        String v = text(ctx, name);
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

    /**
     * A point in time: epoch milliseconds, an ISO-8601 instant or offset date-time ({@code 2026-11-29T10:00:00Z}),
     * a local date-time as HTML's datetime-local input sends it ({@code 2026-11-29T10:00}, read as UTC) or a date
     * ({@code 2026-11-29}, its start; with {@code endOfDay} its last millisecond, so "to 2026-11-29" includes that day).
     */
    public static Long time(Context ctx, String name, boolean endOfDay) {
        String v = text(ctx, name);
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
}
