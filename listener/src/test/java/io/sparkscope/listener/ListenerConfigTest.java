package io.sparkscope.listener;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ListenerConfigTest {
    @Test
    void defaultsWithoutAnySetting() {
        List<String> warnings = new ArrayList<>();
        ListenerConfig c = ListenerConfig.from(Map.of(), warnings::add);
        assertTrue(c.enabled());
        assertFalse(c.hasDatabase());
        assertEquals(10_000, c.tasksPerStage());
        assertEquals(100_000, c.tasksRetained());
        assertEquals(256L << 20, c.spoolMaxBytes());
        assertEquals(java.nio.file.Paths.get(System.getProperty("java.io.tmpdir"),
                "sparkscope-spool-" + System.getProperty("user.name")), c.spoolDir(), "one spool per user");
        assertEquals(10_000, c.flushTimeoutMs());
        assertTrue(c.reportEnabled());
        assertNull(c.uiUrl());
        assertTrue(warnings.isEmpty());
    }

    @Test
    void everyKeyIsRead() {
        ListenerConfig c = ListenerConfig.from(Map.of(
                "spark.sparkscope.jdbc.url", "jdbc:postgresql://db/x",
                "spark.sparkscope.jdbc.user", "u",
                "spark.sparkscope.jdbc.password", "p",
                "spark.sparkscope.tasks.perStage", "7",
                "spark.sparkscope.spool.dir", "/tmp/spool-x",
                "spark.sparkscope.spool.maxBytes", "2g",
                "spark.sparkscope.flush.timeoutMs", "1500",
                "spark.sparkscope.report.enabled", "false",
                "spark.sparkscope.ui.url", "http://sparkscope:7070",
                "spark.sparkscope.heuristics.StageSkew.ratio.low", "4"), w -> { });
        assertTrue(c.hasDatabase());
        assertEquals("u", c.jdbcUser());
        assertEquals(7, c.tasksPerStage());
        assertEquals(5000, ListenerConfig.from(Map.of("spark.sparkscope.tasks.retained", "5000"), w -> { })
                .tasksRetained());
        assertEquals(250, ListenerConfig.from(Map.of("spark.sparkscope.retained.executors", "250"), w -> { })
                .retainedDeadExecutors());
        assertEquals(ListenerConfig.DEFAULT_RETAINED, c.retainedDeadExecutors());
        assertEquals("/tmp/spool-x", c.spoolDir().toString());
        assertEquals(2L << 30, c.spoolMaxBytes());
        assertEquals(1500, c.flushTimeoutMs());
        assertFalse(c.reportEnabled());
        assertEquals("http://sparkscope:7070", c.uiUrl());
        assertEquals(Map.of("StageSkew.ratio.low", "4"), c.heuristics());
    }

    @Test
    void invalidValuesWarnOnceNamingKeyValueAndFallback() {
        List<String> warnings = new ArrayList<>();
        ListenerConfig c = ListenerConfig.from(Map.of(
                "spark.sparkscope.tasks.perStage", "lots",
                "spark.sparkscope.enabled", "yes please",
                "spark.sparkscope.spool.maxBytes", "big",
                "spark.sparkscope.flush.timeoutMs", "-5"), warnings::add);
        assertEquals(4, warnings.size(), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("spark.sparkscope.tasks.perStage")
                && w.contains("'lots'") && w.contains("using 10000")), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("spark.sparkscope.enabled") && w.contains("using true")));
        assertTrue(warnings.stream().anyMatch(w -> w.contains("spark.sparkscope.flush.timeoutMs")
                && w.contains("using 10000")));
        assertEquals(10_000, c.tasksPerStage());
        assertTrue(c.enabled());
    }

    @Test
    void pricesForTheDriverLogReport() {
        ListenerConfig c = ListenerConfig.from(Map.of("spark.sparkscope.cost.coreHour", "0.04",
                "spark.sparkscope.cost.gbHour", "0.005", "spark.sparkscope.cost.currency", "eur"), w -> { });
        assertEquals(new io.sparkscope.core.analysis.efficiency.Prices(0.04, 0.005, "EUR"), c.prices());
        assertFalse(ListenerConfig.from(Map.of(), w -> { }).prices().configured(), "no prices unless given");
        List<String> warnings = new ArrayList<>();
        ListenerConfig bad = ListenerConfig.from(Map.of("spark.sparkscope.cost.coreHour", "0.04",
                "spark.sparkscope.cost.gbHour", "a lot"), warnings::add);
        assertFalse(bad.prices().configured(), "half the prices would be a wrong cost");
        assertEquals(List.of("spark.sparkscope.cost.gbHour must be a number of at least 0 (e.g. 0.05), got \"a lot\"; "
                + "the driver-log report shows no cost"), warnings);
    }

    @Test
    void passwordNeverPrinted() {
        ListenerConfig c = ListenerConfig.from(Map.of("spark.sparkscope.jdbc.password", "hunter2",
                "spark.sparkscope.jdbc.url", "jdbc:postgresql://h/db?password=hunter2"), w -> { });
        assertFalse(c.toString().contains("hunter2"), c.toString());
        assertFalse(ListenerConfig.redactUrl(c.jdbcUrl()).contains("hunter2"));
    }

    @Test
    void anInvalidRedactionRegexIsNamedOnce() {
        List<String> warnings = new ArrayList<>();
        ListenerConfig.from(Map.of("spark.sparkscope.redaction.regex", "(unclosed"), warnings::add);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("spark.sparkscope.redaction.regex is not a valid regular expression"),
                warnings.get(0));
    }
}
