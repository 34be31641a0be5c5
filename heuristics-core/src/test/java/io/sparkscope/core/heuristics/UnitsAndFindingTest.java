package io.sparkscope.core.heuristics;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

    @Test
    void formatsForPeople() {
        assertEquals("1.5 GiB", Units.bytes(3 * Units.GiB / 2));
        assertEquals("6g", Units.sparkSize(6 * Units.GiB));
        assertEquals("80m", Units.sparkSize(80 * Units.MiB));
        assertEquals("850 ms", Units.duration(850));
        assertEquals("4 min 05 s", Units.duration(245_000));
        assertEquals("25 %", Units.percent(0.25));
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
