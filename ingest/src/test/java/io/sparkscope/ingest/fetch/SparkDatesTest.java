package io.sparkscope.ingest.fetch;

import org.junit.jupiter.api.Test;

import java.text.SimpleDateFormat;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Date;
import java.util.Locale;
import java.util.TimeZone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SparkDatesTest {
    // 1969-12-31T23:59:59.999 (a running attempt's end), the epoch, a leap day, a recent date, the last ms of 9999
    private static final long[] TIMES = {-1L, 0L, 1L, 951_782_400_123L, 1_764_000_000_123L, 253_402_300_799_999L};

    /** Spark's JacksonMessageWriter writes dates with exactly this SimpleDateFormat in GMT. */
    private static String asSpark(long epochMs) {
        SimpleDateFormat spark = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss.SSS'GMT'", Locale.US);
        spark.setTimeZone(TimeZone.getTimeZone("GMT"));
        return spark.format(new Date(epochMs));
    }

    @Test
    void writesWhatSparkWrites() {
        for (long t : TIMES) {
            assertEquals(asSpark(t), SparkDates.format(t), "epoch ms " + t);
        }
        assertEquals("1969-12-31T23:59:59.999GMT", SparkDates.format(-1));
    }

    @Test
    void agreesWithTheServersEarlierYearOfEraPattern() {
        // the server's API wrote "yyyy" (year of era), the fetch client "uuuu" (proleptic year): the one format
        // must give the same text for every date an application can have
        DateTimeFormatter yearOfEra = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'GMT'")
                .withZone(ZoneOffset.UTC);
        for (long t : TIMES) {
            assertEquals(yearOfEra.format(Instant.ofEpochMilli(t)), SparkDates.format(t), "epoch ms " + t);
        }
    }

    @Test
    void readsBackWhatItWrites() {
        for (long t : TIMES) {
            assertEquals(t, SparkDates.parse(SparkDates.format(t)), "epoch ms " + t);
        }
        assertEquals(-1, SparkDates.parse(null));
        assertEquals(-1, SparkDates.parse(""));
        assertThrows(IllegalArgumentException.class, () -> SparkDates.parse("2026-11-29 16:12:48"));
    }
}
