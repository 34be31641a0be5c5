package io.sparkscope.server.cli;

import io.sparkscope.store.TestDb;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code sparkscope tune} over three imported runs of a recurring job (see {@link TuneLogs}), on a real PostgreSQL. */
class TuneCommandTest {
    @TempDir
    static Path dir;
    private static String url;

    @BeforeAll
    static void importJob() throws Exception {
        url = TestDb.url(TuneLogs.importedJob(dir, 3));
    }

    /** What spark-submit does with --properties-file: Properties.load over UTF-8, each value trimmed. */
    static Map<String, String> asSparkSubmitReadsIt(Reader in) throws Exception {
        Properties p = new Properties();
        p.load(in);
        Map<String, String> out = new TreeMap<>();
        for (String k : p.stringPropertyNames()) {
            out.put(k, p.getProperty(k).trim());
        }
        return out;
    }

    @Test
    void writesAPropertiesFileSparkSubmitReadsWithTheWhyTheSavingAndThePrediction() throws Exception {
        Path file = dir.resolve("nightly.properties");
        CliRun r = CliRun.of("tune", "--job", TuneLogs.JOB, "--db", url, "--output", file.toString());
        assertEquals(0, r.exitCode(), r.err());
        Map<String, String> settings;
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            settings = asSparkSubmitReadsIt(in);
        }
        // 8 cores per executor → 5, memory per core kept: 8g × 5 / 8
        assertEquals(Map.of("spark.executor.cores", "5", "spark.executor.memory", "5g"), settings);

        String text = Files.readString(file);
        assertTrue(text.contains("latest stored run app-tune-3"), text);
        assertTrue(text.contains("# spark.executor.cores: now 8; use 5"), text);
        assertTrue(text.contains("why: CoreNumber (8 cores per executor): 8 concurrent tasks"), text);
        assertTrue(text.contains("expected saving: not estimated"), text);
        // the what-if: today's 2 × 8 slots against 2 × 5, one wave of 16 two-second tasks becoming two
        assertTrue(text.contains("today:               2 executor(s) x 8 core(s)"), text);
        assertTrue(text.contains("with these settings: 2 executor(s) x 5 core(s)"), text);
        assertTrue(text.contains("modelled: spark.executor.cores"), text);
        assertTrue(text.contains("executors kept as run (2): no finding advises spark.executor.instances"), text);
        assertTrue(text.contains("effect on time (GC, spill) is not modelled: spark.executor.memory"), text);
        assertFalse(text.contains(TuneLogs.SECRET), text);

        // with --output, stdout is the same settings as spark-submit options
        assertEquals(List.of("--conf spark.executor.cores=5", "--conf spark.executor.memory=5g"),
                r.out().lines().toList());
        assertTrue(r.err().contains("wrote 2 setting(s) for job 'nightly-orders' to " + file), r.err());
    }

    @Test
    void printsThePropertiesFileOrTheConfLines() throws Exception {
        CliRun props = CliRun.of("tune", "--job", TuneLogs.JOB, "--db", url);
        assertEquals(0, props.exitCode(), props.err());
        assertEquals(Map.of("spark.executor.cores", "5", "spark.executor.memory", "5g"),
                asSparkSubmitReadsIt(new java.io.StringReader(props.out())));
        assertTrue(props.out().contains("#   --conf spark.executor.cores=5"), props.out());

        CliRun conf = CliRun.of("tune", "--job", TuneLogs.JOB, "--db", url, "--format", "conf");
        assertEquals(0, conf.exitCode(), conf.err());
        assertEquals(List.of("--conf spark.executor.cores=5", "--conf spark.executor.memory=5g"),
                conf.out().lines().toList());
        assertFalse(conf.out().contains(TuneLogs.SECRET));
    }

    @Test
    void anUnknownJobIsOneLineNamingTheKeyAndExitCode2() {
        CliRun r = CliRun.of("tune", "--job", "no-such-job", "--db", url);
        assertEquals(2, r.exitCode(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("sparkscope tune: no stored run of job 'no-such-job'"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void theApplicationNameOfOneJobWorksAsTheJob() {
        // a new user knows the name the application ran under ("orders"), not the key Sparkscope stored it by
        CliRun r = CliRun.of("tune", "--job", "orders", "--db", url, "--format", "conf");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(List.of("--conf spark.executor.cores=5", "--conf spark.executor.memory=5g"),
                r.out().lines().toList());
    }

    @Test
    void anUnknownFormatIsAUsageError() {
        CliRun r = CliRun.of("tune", "--job", TuneLogs.JOB, "--db", url, "--format", "yaml");
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("--format: \"yaml\""), r.err());
    }
}
