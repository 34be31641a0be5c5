package io.sparkscope.listener;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.redact.Redactor;
import io.sparkscope.listener.ListenerSettings.Setting;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.sparkscope.listener.ListenerSettings.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The declaration of the listener's settings is the one source: the listener reads every setting through it and
 * names no other, the documentation lists exactly what it declares, and each declared default is the value used.
 */
class ListenerSettingsTest {
    /** The module's directory when Maven runs the tests; the documentation is beside it. */
    private static final Path DOC = Paths.get("..", "docs", "listener-settings.md");
    private static final Path MAIN = Paths.get("src", "main", "java", "io", "sparkscope", "listener");

    @Test
    void theDocumentationIsMadeFromTheDeclaration() throws IOException {
        String made = ListenerSettings.markdown();
        if (Boolean.getBoolean("sparkscope.writeDocs")) {
            Files.writeString(DOC, made, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(DOC), DOC.toAbsolutePath() + " is missing");
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);

        // its table, row by row: exactly the declared keys, with their defaults and descriptions
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (String line : doc.split("\n")) {
            if (line.startsWith("| `spark.sparkscope.")) {
                String[] cells = line.substring(2, line.length() - 2).split(" \\| ", -1);
                rows.put(cells[0].replace("`", ""), List.of(cells).subList(1, cells.length));
            }
        }
        Map<String, List<String>> declared = new LinkedHashMap<>();
        for (Setting<?> s : ListenerSettings.ALL) {
            declared.put(s.shownKey(), List.of(s.type(), s.shownDefault(), s.description()));
        }
        assertEquals(declared.keySet(), rows.keySet(), "the documented keys are the declared ones");
        assertEquals(declared, rows, "each key's type, default and description as declared");
        assertEquals(made, doc, DOC + " is not what the declaration makes: run this test with"
                + " -Dsparkscope.writeDocs=true to write it again");
    }

    @Test
    void everySettingNamedInTheListenersCodeIsDeclared() throws IOException {
        Set<String> keys = new LinkedHashSet<>();
        List<String> families = new ArrayList<>();
        for (Setting<?> s : ListenerSettings.ALL) {
            if (s.family()) {
                families.add(s.key());
            }
            keys.add(s.key());
        }
        Pattern literal = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");
        Pattern key = Pattern.compile("spark\\.sparkscope\\.[A-Za-z0-9_.]*");
        List<String> undeclared = new ArrayList<>();
        int files = 0;
        try (Stream<Path> walk = Files.walk(MAIN)) {
            for (Path f : walk.filter(p -> p.toString().endsWith(".java")).toList()) {
                files++;
                String code = Files.readString(f, StandardCharsets.UTF_8);
                boolean declaration = f.getFileName().toString().equals("ListenerSettings.java");
                Matcher m = literal.matcher(code);
                while (m.find()) {
                    Matcher k = key.matcher(m.group(1));
                    while (k.find()) {
                        String name = k.group();
                        boolean ok = keys.contains(name) || families.stream().anyMatch(name::startsWith)
                                || declaration && name.equals(PREFIX);
                        if (!ok) {
                            undeclared.add(f.getFileName() + ": \"" + m.group(1) + "\"");
                        }
                    }
                }
                // a key made from the prefix by hand would escape the look above
                if (!declaration && code.contains("PREFIX + \"")) {
                    undeclared.add(f.getFileName() + ": a key made as PREFIX + \"…\"; declare it in ListenerSettings");
                }
            }
        }
        assertTrue(files > 10, "the listener's sources were found under " + MAIN.toAbsolutePath());
        assertEquals(List.of(), undeclared, "every spark.sparkscope.* setting the listener names is declared");
    }

    @Test
    void defaultsAreTheDeclaredOnesAndTheDocumentedOnes() {
        List<String> warnings = new ArrayList<>();
        ListenerConfig c = ListenerConfig.from(Map.of(), warnings::add);
        assertEquals(List.of(), warnings);
        for (Case k : cases()) {
            assertEquals(k.setting.defaultValue(), k.read.apply(c, Map.of()), k.setting.key() + "'s default");
        }
        assertEquals(true, c.enabled());
        assertEquals(10_000, c.tasksPerStage());
        assertEquals(1_000, c.retainedStages());
        assertEquals(256L << 20, c.spoolMaxBytes());
        assertEquals(50_000, c.queueCapacity());
        assertEquals(60_000, c.retryMaxBackoffMs());
        assertEquals(1.5, c.regressionFactor());
        assertEquals(Prices.NONE, c.prices());
        // a documented default, read as a value, is the default used
        for (Setting<?> s : ListenerSettings.ALL) {
            if (s.shownDefault().startsWith("`") && s != SPOOL_DIR) {
                String shown = s.shownDefault().replace("`", "");
                assertEquals(s.defaultValue(), s.parse().apply(shown), s.key() + " documented as " + shown);
            }
        }
    }

    @Test
    void everySettingGivenIsReadAsGiven() {
        Map<String, String> conf = new HashMap<>();
        List<Case> cases = cases();
        for (Case k : cases) {
            conf.put(k.setting.shownKey().replace("<key>", "StageSkew.ratio.low"), k.given);
        }
        Set<Setting<?>> covered = new LinkedHashSet<>();
        cases.forEach(k -> covered.add(k.setting));
        assertEquals(new LinkedHashSet<>(ListenerSettings.ALL), covered, "a case for every declared setting");

        List<String> warnings = new ArrayList<>();
        ListenerConfig c = ListenerConfig.from(conf, warnings::add);
        assertEquals(List.of(), warnings);
        for (Case k : cases) {
            assertNotEquals(k.setting.defaultValue(), k.expected, k.setting.key() + ": the case must change it");
            assertEquals(k.expected, k.read.apply(c, conf), k.setting.key() + "=" + k.given);
        }
    }

    /**
     * A setting given as {@code given}, read back as {@code expected} by {@code read} from the listener's
     * configuration (or, for the one the recorder reads itself, from Spark's settings).
     */
    private record Case(Setting<?> setting, String given, Object expected,
                        BiFunction<ListenerConfig, Map<String, String>, Object> read) {
        Case(Setting<?> setting, String given, Object expected, Function<ListenerConfig, Object> read) {
            this(setting, given, expected, (c, conf) -> read.apply(c));
        }
    }

    private static List<Case> cases() {
        return List.of(
                new Case(ENABLED, "false", false, ListenerConfig::enabled),
                new Case(JDBC_URL, "jdbc:postgresql://db:5432/x", "jdbc:postgresql://db:5432/x",
                        ListenerConfig::jdbcUrl),
                new Case(JDBC_USER, "u", "u", ListenerConfig::jdbcUser),
                new Case(JDBC_PASSWORD, "p", "p", ListenerConfig::jdbcPassword),
                new Case(TASKS_PER_STAGE, "7", 7L, c -> (long) c.tasksPerStage()),
                new Case(TASKS_RETAINED, "5000", 5000L, c -> (long) c.tasksRetained()),
                new Case(RETAINED_JOBS, "11", 11L, c -> (long) c.retainedJobs()),
                new Case(RETAINED_STAGES, "12", 12L, c -> (long) c.retainedStages()),
                new Case(RETAINED_SQL_EXECUTIONS, "13", 13L, c -> (long) c.retainedSqlExecutions()),
                new Case(RETAINED_EXECUTORS, "14", 14L, c -> (long) c.retainedDeadExecutors()),
                new Case(SPOOL_DIR, "/tmp/spool-x", Paths.get("/tmp/spool-x"), ListenerConfig::spoolDir),
                new Case(SPOOL_MAX_BYTES, "2g", 2L << 30, ListenerConfig::spoolMaxBytes),
                // read with the application's settings by the recorder's redactor, which names the same key
                new Case(REDACTION_REGEX, "(?i)warehouse", "(?i)warehouse", (c, conf) -> Redactor
                        .forSparkProperties(conf).isSecret("spark.sql.warehouse.dir", "/data")
                        ? conf.get(REDACTION_REGEX.key()) : null),
                new Case(FLUSH_TIMEOUT_MS, "1500", 1500L, ListenerConfig::flushTimeoutMs),
                new Case(FLUSH_INTERVAL_MS, "250", 250L, ListenerConfig::flushIntervalMs),
                new Case(DIAGNOSIS_INTERVAL_MS, "0", 0L, ListenerConfig::diagnosisIntervalMs),
                new Case(REPORT_ENABLED, "false", false, ListenerConfig::reportEnabled),
                new Case(UI_URL, "http://sparkscope:7070", "http://sparkscope:7070", ListenerConfig::uiUrl),
                new Case(WEBHOOK_URL, "http://hooks/x", "http://hooks/x", ListenerConfig::webhookUrl),
                new Case(REGRESSION_FACTOR, "3", 3.0, ListenerConfig::regressionFactor),
                new Case(COST_CORE_HOUR, "0.04", "0.04", c -> c.prices().configured()
                        ? String.valueOf(c.prices().perCoreHour()) : null),
                new Case(COST_GB_HOUR, "0.005", "0.005", c -> c.prices().configured()
                        ? String.valueOf(c.prices().perGbHour()) : null),
                new Case(COST_CURRENCY, "eur", "EUR", c -> c.prices().currency().isEmpty() ? null
                        : c.prices().currency()),
                new Case(STREAMING_BATCHES_PER_QUERY, "20", 20L, c -> (long) c.streamingLimits().batchesPerQuery()),
                new Case(STREAMING_RETAINED_QUERIES, "3", 3L, c -> (long) c.streamingLimits().retainedQueryRuns()),
                new Case(QUEUE_CAPACITY, "2000", 2000L, c -> (long) c.queueCapacity()),
                new Case(RETRY_MAX_BACKOFF_MS, "900", 900L, ListenerConfig::retryMaxBackoffMs),
                new Case(HEURISTICS, "4", Map.of("StageSkew.ratio.low", "4"), ListenerConfig::heuristics));
    }
}
