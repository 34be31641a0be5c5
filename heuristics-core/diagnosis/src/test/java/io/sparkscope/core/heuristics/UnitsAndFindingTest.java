package io.sparkscope.core.heuristics;

import io.sparkscope.core.text.Units;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UnitsAndFindingTest {
    @Test
    void parsesSizesLikeSpark() {
        assertEquals(4 * Units.GiB, Units.parseBytes("4g", Units.MiB));
        assertEquals(512 * Units.MiB, Units.parseBytes("512M", Units.MiB));
        assertEquals(Units.MiB, Units.parseBytes("1024k", Units.MiB));
        assertEquals(2 * Units.GiB, Units.parseBytes(" 2gb ", Units.MiB));
        assertEquals(4096 * Units.MiB, Units.parseBytes("4096", Units.MiB)); // bare number: the default unit
        assertEquals(100, Units.parseBytes("100", 1));
        assertThrows(NumberFormatException.class, () -> Units.parseBytes("1.5g", Units.MiB));
        assertThrows(NumberFormatException.class, () -> Units.parseBytes("4x", Units.MiB));
    }

    /** The whole-number rounding below a PiB must write exactly what String.format writes for the double. */
    @Test
    void sizesAreWrittenAsTheFormatterWritesThem() {
        java.util.Random random = new java.util.Random(42);
        List<Long> sizes = new java.util.ArrayList<>();
        for (long unit = 1; unit <= Units.PiB * 4; unit *= 1024) {
            for (long m = 0; m < 4096; m++) {
                sizes.add(unit * m / 4); // quarters: exact ties such as 1.25 and 99.75
                sizes.add(unit * m / 40 + 1); // just past a rounding point
                sizes.add(Math.max(0, unit * m / 20 - 1)); // just short of one
            }
            for (int k = 0; k < 20_000; k++) {
                sizes.add((long) (random.nextDouble() * 1100 * unit));
            }
        }
        for (long b : sizes) {
            String[] names = {"KiB", "MiB", "GiB", "TiB", "PiB"};
            String expected;
            if (b < 1024) {
                expected = b + " B";
            } else {
                double value = b;
                int i = -1;
                while (value >= 1024 && i < names.length - 1) {
                    value /= 1024;
                    i++;
                }
                expected = String.format(java.util.Locale.ROOT, value >= 100 ? "%.0f %s" : "%.1f %s", value, names[i]);
            }
            assertEquals(expected, Units.bytes(b), "bytes(" + b + ")");
        }
    }

    @Test
    void formatsForPeople() {
        assertEquals("1.5 GiB", Units.bytes(3 * Units.GiB / 2));
        assertEquals("6g", Units.sparkSize(6 * Units.GiB));
        assertEquals("80m", Units.sparkSize(80 * Units.MiB));
        assertEquals("850 ms", Units.duration(850));
        assertEquals("4 min 05 s", Units.duration(245_000));
        assertEquals("25 %", Units.percent(0.25));
    }

    /**
     * One way to write hours for findings, pages and the report: MemorySizing had its own, which wrote "<0.01" for
     * nothing and "250.4" where the efficiency pages write "250" for the same GB-hours.
     */
    @Test
    void hoursAreWrittenOneWay() {
        assertEquals("0", Units.hours(0));
        assertEquals("<0.01", Units.hours(0.004));
        assertEquals("0.42", Units.hours(0.4249));
        assertEquals("12.5", Units.hours(12.46));
        assertEquals("250", Units.hours(250.4));
        assertEquals("1 234", Units.hours(1234.4));
        assertEquals("-", Units.hours(-1));
    }

    /**
     * One way to write a size someone set or declared (the reader's limits, --max-body-mb, a Content-Length): whole
     * MiB or GiB as written, otherwise as {@link Units#bytes}. The history client's copy wrote a declared 1.5 MiB as
     * "2 MiB" and the reader's wrote "1572864 bytes".
     */
    @Test
    void sizesSetByPeopleReadAsWritten() {
        assertEquals("64 MiB", Units.size(64 * Units.MiB));
        assertEquals("32 GiB", Units.size(32 * Units.GiB));
        assertEquals("1536 MiB", Units.size(1536 * Units.MiB));
        assertEquals("1.5 MiB", Units.size(3 * Units.MiB / 2));
        assertEquals("512 B", Units.size(512));
    }

    @Test
    void countsCoreTimeAndHumanSizes() {
        assertEquals("1 task", Units.count(1, "task"));
        assertEquals("2 tasks", Units.count(2, "task"));
        assertEquals("0 tasks", Units.count(0, "task"));
        assertEquals("12,416 tasks", Units.count(12_416, "task"));
        assertEquals("1 executor lost", Units.count(1, "executor lost", "executors lost"));
        assertEquals("9 min 32 s", Units.duration(572_000));
        assertEquals("0.4 core-hours", Units.coreHours(1_440_000));
        assertEquals("12.0 core-hours", Units.coreHours(12 * 3_600_000L));
        assertEquals("240 core-hours", Units.coreHours(240 * 3_600_000L));
        assertEquals("3.5 core-minutes", Units.coreHours(210_000));
        assertEquals("4 core-seconds", Units.coreHours(4_200));

        assertEquals(Units.GiB, Units.parseSize("1GB"));
        assertEquals(Units.GiB, Units.parseSize("1g"));
        assertEquals(512 * Units.MiB, Units.parseSize("512m"));
        assertEquals(10 * Units.GiB, Units.parseSize("10 GiB"));
        assertEquals(3 * Units.GiB / 2, Units.parseSize(" 1.5 gb "));
        assertEquals(4096, Units.parseSize("4096"));
        assertEquals(2 * Units.KiB, Units.parseSize("2KiB"));
        for (String bad : new String[]{"", "abc", "-1g", "1 parsec", "1.g", "99999999999p", "1e9"}) {
            NumberFormatException e = assertThrows(NumberFormatException.class, () -> Units.parseSize(bad), bad);
            assertTrue(e.getMessage().contains("'" + bad.trim() + "'"), e.getMessage());
        }
    }

    @Test
    void findingsHoldOnlyJsonValues() {
        Finding f = Finding.builder("X", Severity.LOW).location("1.0").detail("n", 1).detail("list", List.of(1, "a"))
                .detail("map", Map.of("k", 2.5)).build();
        assertEquals("X:1.0", f.id());
        assertThrows(IllegalArgumentException.class,
                () -> Finding.builder("X", Severity.LOW).detail("bad", new Object()).build());
        assertThrows(IllegalArgumentException.class,
                () -> Finding.builder("X", Severity.LOW).detail("nan", Double.NaN).build());
        assertThrows(IllegalArgumentException.class, () -> Finding.builder("X", Severity.NONE).build());
    }
}
