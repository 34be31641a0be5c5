package io.sparkscope.core.eventlog;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.testing.DatabricksRollover;
import io.sparkscope.core.testing.SharedData;
import io.sparkscope.core.testing.SyntheticLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Databricks logs: the Spark version from the {@code DBCEventLoggingListenerMetadata} line, and a rollover directory
 * ({@code eventlog-…gz} files and the current {@code eventlog}) read in time order as one application.
 */
class DatabricksLogTest {
    private static final long T0 = 1_642_179_495_331L;

    @TempDir
    Path dir;

    private static EventLogAnalysis.Result analyze(EventLogSource source, List<String> problems) {
        return EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS, problems::add);
    }

    @Test
    void aRolloverIsOneApplicationReadInTimeOrder() throws Exception {
        SyntheticLog app = new SyntheticLog("app-20220114165818-0000", "Databricks Shell", T0, 6, 40);
        Path rollover = dir.resolve("cluster-logs/0114-165500-abc/eventlog/0114-165500-abc_10_0_0_1/3987391921526261116");
        List<Path> files = DatabricksRollover.write(rollover, app);
        Path other = dir.resolve("other/app-20250101000000-0001");
        new SyntheticLog("app-20250101000000-0001", "other", T0, 1, 4).writeTo(other);

        List<String> warnings = new ArrayList<>();
        List<EventLogSource> found = EventLogReader.discover(dir, warnings::add);
        assertEquals(List.of(rollover, other), found.stream().map(EventLogSource::path).toList(), warnings.toString());
        assertEquals(files, found.get(0).parts());

        List<String> problems = new ArrayList<>();
        EventLogAnalysis.Result r = analyze(found.get(0), problems);
        assertEquals(List.of(), problems);
        AppSnapshot s = r.snapshot();
        assertEquals("app-20220114165818-0000", s.appId());
        assertEquals(DatabricksRollover.SPARK_VERSION, s.sparkVersion());
        assertEquals(6, s.totals().jobs());
        assertEquals(6, s.totals().stages());
        assertEquals(app.tasks(), s.totals().tasks());
        assertEquals(app.tasks(), s.totals().taskEndEvents());
        assertEquals(0, s.totals().duplicateTaskEnds());
        assertTrue(s.complete());
    }

    /** The watcher reads a rollover through a tail: it gives what one read gives, every file once. */
    @Test
    void aTailReadsARolloverAsOneReadDoes() throws Exception {
        SyntheticLog app = new SyntheticLog("app-20220114165818-0000", "Databricks Shell", T0, 6, 40);
        Path rollover = dir.resolve("3987391921526261116");
        DatabricksRollover.write(rollover, app);
        EventLogSource source = EventLogReader.databricksRollover(rollover);
        io.sparkscope.core.recorder.Recorder recorder = new io.sparkscope.core.recorder.Recorder();
        List<String> problems = new ArrayList<>();
        EventLogTail tail = new EventLogTail(recorder::onEvent, problems::add);
        tail.readNew(source);
        assertTrue(tail.finished());
        assertEquals(List.of(), problems);
        assertEquals(3, tail.part(), "the files are numbered by their place: the third was read last");
        AppSnapshot s = recorder.snapshot();
        assertEquals(app.tasks(), s.totals().tasks());
        assertTrue(s.complete());
        assertEquals(analyze(source, new ArrayList<>()).snapshot(), s);
    }

    /** Naming one of the files still reads the whole rollover, and says so. */
    @Test
    void namingTheCurrentFileReadsItsRolloverWithIt() throws Exception {
        Path rollover = dir.resolve("driver");
        List<Path> files = DatabricksRollover.write(rollover,
                new SyntheticLog("app-20220114165818-0000", "Databricks Shell", T0, 3, 10));
        List<String> warnings = new ArrayList<>();
        List<EventLogSource> found = EventLogReader.discover(rollover.resolve("eventlog"), warnings::add);
        assertEquals(1, found.size());
        assertEquals(files, found.get(0).parts());
        assertEquals(List.of(rollover.resolve("eventlog") + ": one of 3 Databricks rollover files in " + rollover
                + "; all are read, in time order, as one application"), warnings);
        // a lone eventlog is an ordinary log
        Path lone = Files.createDirectory(dir.resolve("lone"));
        Files.copy(rollover.resolve("eventlog"), lone.resolve("eventlog"));
        assertEquals(List.of(lone.resolve("eventlog")), EventLogReader.discover(lone).get(0).parts());
        assertEquals(List.of(lone.resolve("eventlog")), EventLogReader.discover(lone.resolve("eventlog")).get(0).parts());
    }

    @Test
    void theVersionComesFromTheMetadataLineUnlessALogStartGivesOne() throws Exception {
        String start = "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"n\",\"App ID\":\"app-1\","
                + "\"Timestamp\":" + T0 + ",\"User\":\"u\"}";
        String logStart = "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}";
        Path metadataOnly = TestLogs.write(dir.resolve("a"), List.of(DatabricksRollover.metadata(0), start));
        Path logStartAfter = TestLogs.write(dir.resolve("b"), List.of(DatabricksRollover.metadata(0), logStart, start));
        Path logStartBefore = TestLogs.write(dir.resolve("c"),
                List.of(logStart, start, DatabricksRollover.metadata(1)));
        List<String> problems = new ArrayList<>();
        assertEquals("3.1.2", analyze(EventLogSource.ofFile(metadataOnly), problems).snapshot().sparkVersion());
        assertEquals("3.5.1", analyze(EventLogSource.ofFile(logStartAfter), problems).snapshot().sparkVersion());
        assertEquals("3.5.1", analyze(EventLogSource.ofFile(logStartBefore), problems).snapshot().sparkVersion());
        assertEquals(List.of(), problems);
    }

    /** The real rollover from a Databricks cluster (Spark 3.1.2, still running when copied). */
    @Test
    void theRealDatabricksRolloverIsOneApplication() throws Exception {
        Path real = SharedData.eventLogs().map(p -> p.resolve("other/databricks-rollover")).filter(Files::isDirectory)
                .orElse(null);
        assumeTrue(real != null, "../shared/eventlogs/other/databricks-rollover not found (set SPARKSCOPE_SHARED or"
                + " run from a checkout next to it): skipping the test on a real Databricks rollover");
        List<EventLogSource> found = EventLogReader.discover(real, w -> { });
        assertEquals(1, found.size(), found.toString());
        assertEquals(List.of("eventlog-2022-01-14--17-00.gz", "eventlog-2022-01-14--18-00.gz", "eventlog"),
                found.get(0).parts().stream().map(p -> p.getFileName().toString()).toList());
        List<String> problems = new ArrayList<>();
        AppSnapshot s = analyze(found.get(0), problems).snapshot();
        assertEquals(List.of(), problems);
        assertEquals("app-20220114165818-0000", s.appId());
        assertEquals("Databricks Shell", s.appName());
        assertEquals("3.1.2", s.sparkVersion());
        // counted over the three files: 72 JobStart naming 194 stages, of which 72 were submitted and completed
        // (the rest skipped), 8 247 TaskEnd of as many task ids
        assertEquals(72, s.totals().jobs());
        assertEquals(194, s.totals().stages());
        assertEquals(122, s.totals().skippedStages());
        assertEquals(8_247, s.totals().tasks());
        assertEquals(8_247, s.totals().taskEndEvents());
        assertEquals(0, s.totals().duplicateTaskEnds());
        assertTrue(!s.complete(), "no ApplicationEnd: the application was still running");
    }
}
