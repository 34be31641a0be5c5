package io.sparkscope.server.web.text;

import io.sparkscope.server.web.text.Fmt;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Fmt.time writes what the formatter it replaced wrote, for any time. */
class FmtTimeTest {
    private static final DateTimeFormatter FORMATTER = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    @Test
    void sameTextAsTheFormatter() {
        SplittableRandom r = new SplittableRandom(7);
        long[] fixed = {1, 999, 1000, 86_399_999, 1_764_633_600_000L, 253_402_300_799_999L, 253_402_300_800_000L,
                Long.MAX_VALUE / 1000};
        for (long ms : fixed) {
            assertEquals(FORMATTER.format(Instant.ofEpochMilli(ms)), Fmt.time(ms), String.valueOf(ms));
        }
        for (int i = 0; i < 100_000; i++) {
            long ms = r.nextLong(1, 300_000_000_000_000L);
            assertEquals(FORMATTER.format(Instant.ofEpochMilli(ms)), Fmt.time(ms), String.valueOf(ms));
        }
        assertEquals("2025-12-02 00:00:00 UTC", Fmt.time(1_764_633_600_000L));
        assertEquals("—", Fmt.time(0));
        assertEquals("—", Fmt.time(-5));
    }
}
