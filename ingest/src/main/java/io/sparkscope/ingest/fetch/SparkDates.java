package io.sparkscope.ingest.fetch;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Dates as Spark's REST API writes and reads them: {@code 2026-11-29T16:12:48.540GMT} (Spark's
 * {@code JacksonMessageWriter} and {@code SimpleDateParam}), always UTC, millisecond precision, so no time is lost
 * on the way. The one copy of the format: the fetch client reads it and the server's Spark-compatible API writes it.
 */
public final class SparkDates {
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'GMT'").withZone(ZoneOffset.UTC);

    private SparkDates() {
    }

    /** Epoch ms of a Spark REST date, or -1 for null/empty (Spark leaves unknown dates out or empty). */
    public static long parse(String s) {
        if (s == null || s.isEmpty()) {
            return -1;
        }
        try {
            return Instant.from(FORMAT.parse(s)).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not a Spark REST date: '" + s + "'", e);
        }
    }

    /**
     * Any epoch ms as Spark writes it (-1 too: Spark's end time of a running attempt), also the form Spark's
     * {@code minEndDate}/{@code minDate} query parameters accept.
     */
    public static String format(long epochMs) {
        return FORMAT.format(Instant.ofEpochMilli(epochMs));
    }
}
