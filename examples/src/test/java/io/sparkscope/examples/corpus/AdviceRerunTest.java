package io.sparkscope.examples.corpus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The advice-rerun harness does what it says (not how fast anything is): a finding's advised settings reach the
 * rerun's Spark environment over the app's own, code-level advice runs the app's fixed variant, and names that do not
 * exist fail naming them. Tiny corpus apps only; the measurement itself is {@code bench/advice-rerun.sh}.
 */
class AdviceRerunTest {
    private static final Path LABELS = Path.of("corpus", "labels");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** What the tests' labels allow first: every heuristic their synthetic analyses name. */
    private static final List<String> ALL = List.of("SmallTasks", "StageFailure", "JoinStrategy", "ExecutorGc");

    @TempDir
    Path dir;

    /** An analysis whose first "Fix this first" item is {@code id}, advising {@code key=value} pairs (maybe none). */
    private static JsonNode analysis(String id, long wallMs, String... advice) throws Exception {
        List<Map<String, Object>> settings = new ArrayList<>();
        for (int i = 0; i < advice.length; i += 2) {
            settings.add(Map.of("key", advice[i], "currentValue", "", "currentSource", "UNKNOWN",
                    "recommendedValue", advice[i + 1], "reasons", List.of()));
        }
        String heuristic = id.split(":")[0];
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fixFirst", List.of(Map.of("findingId", id, "heuristic", heuristic, "severity", "HIGH",
                "impact", Map.of("wallMs", wallMs, "taskMs", 0, "basis", ""))));
        m.put("findings", List.of(Map.of("id", id, "heuristic", heuristic, "advice", settings,
                "impact", Map.of("wallMs", wallMs))));
        return JSON.valueToTree(m);
    }

    @Test
    void advisedSettingsWinOverTheAppsOwnInTheRunsEnvironment() throws Exception {
        // the app sets 2 000 shuffle partitions itself; the advice's value must be the one Spark ran with
        CorpusApp app = CorpusApps.find("too-many-shuffle-partitions").orElseThrow();
        RerunPlan plan = RerunPlan.of(analysis("SmallTasks:2.0", 1500, "spark.sql.shuffle.partitions", "4",
                "spark.sql.adaptive.enabled", "true"), app, ALL, RerunPlan.Mode.AUTO);
        assertFalse(plan.apart() || plan.fixed(), plan.toString());
        assertEquals(1500, plan.promisedMs());
        assertEquals("spark.sql.shuffle.partitions=4, spark.sql.adaptive.enabled=true", plan.applied());

        JsonNode run = AdviceRerun.analyze(AdviceRerun.runHere(app, dir.resolve("fixed"), dir.resolve("data"), plan,
                true));
        assertEquals("4", run.path("config").path("spark.sql.shuffle.partitions").asText(), run.path("config")
                .toString());
        assertEquals("true", run.path("config").path("spark.sql.adaptive.enabled").asText());
    }

    @Test
    void codeLevelAdviceRunsTheFixedVariant() throws Exception {
        CorpusApp app = CorpusApps.find("failing-stage").orElseThrow();
        RerunPlan plan = RerunPlan.of(analysis("StageFailure:1.0", 300), app, ALL, RerunPlan.Mode.AUTO);
        assertTrue(plan.fixed() && plan.settings().isEmpty() && plan.applied().startsWith("fixed code: "),
                plan.toString());

        JsonNode fixed = AdviceRerun.analyze(AdviceRerun.runHere(app, dir.resolve("fixed"), dir.resolve("data"),
                plan, true));
        JsonNode baseline = AdviceRerun.analyze(AdviceRerun.runHere(app, dir.resolve("baseline"),
                dir.resolve("data"), plan, false));
        // the app fails a job on a malformed record; its fixed variant filters the record out
        assertTrue(baseline.path("jobs").findValuesAsText("status").contains("FAILED"), baseline.path("jobs")
                .toString());
        assertFalse(fixed.path("jobs").findValuesAsText("status").contains("FAILED"), fixed.path("jobs").toString());
        assertEquals("failing-stage", fixed.path("appName").asText());
    }

    @Test
    void theChoiceBetweenSettingsAndFixedCodeFollowsTheModeAndWhatTheAppHas() throws Exception {
        CorpusApp withFix = CorpusApps.find("join-not-broadcast").orElseThrow();
        CorpusApp withoutFix = CorpusApps.find("streaming-keeps-up").orElseThrow();
        JsonNode settings = analysis("JoinStrategy:58.0", 900, "spark.sql.autoBroadcastJoinThreshold", "10m");
        JsonNode code = analysis("JoinStrategy:58.0", 900);

        assertFalse(RerunPlan.of(settings, withFix, ALL, RerunPlan.Mode.AUTO).fixed());
        assertTrue(RerunPlan.of(settings, withFix, ALL, RerunPlan.Mode.CODE).fixed());
        assertTrue(RerunPlan.of(code, withFix, ALL, RerunPlan.Mode.AUTO).fixed());
        assertEquals("no settings advised", RerunPlan.of(code, withFix, ALL, RerunPlan.Mode.SETTINGS).apartReason());
        assertEquals("no settings advised and no fixed variant",
                RerunPlan.of(code, withoutFix, ALL, RerunPlan.Mode.AUTO).apartReason());
        // a first item the label does not name: its settings are rerun, but the app's fix is for another cause
        RerunPlan other = RerunPlan.of(settings, withFix, List.of("StageSkew"), RerunPlan.Mode.CODE);
        assertFalse(other.labelled() || other.fixed() || other.apart(), other.toString());
        assertEquals("no settings advised, and the fixed variant fixes the labelled cause, not this one",
                RerunPlan.of(code, withFix, List.of("StageSkew"), RerunPlan.Mode.AUTO).apartReason());
        assertEquals("no \"Fix this first\" item",
                RerunPlan.of(JSON.readTree("{\"fixFirst\": [], \"findings\": []}"), withFix, ALL, RerunPlan.Mode.AUTO)
                        .apartReason());
    }

    @Test
    void theBaselinesPromiseIsReadFromTheSameFindingUnderItsNewStageNumbers() throws Exception {
        // the plan's run named the write stage 37, the baseline run names it 41: its promise is 19.8 s, not 0
        JsonNode baseline = JSON.readTree("""
                {"fixFirst": [{"findingId": "SmallFiles:write41.0"}, {"findingId": "SmallFiles:read42.6"}],
                 "findings": [{"id": "SmallFiles:read42.6", "impact": {"wallMs": 5199}},
                              {"id": "SmallFiles:write41.0", "impact": {"wallMs": 19832}},
                              {"id": "SchedulerDelay:2.0", "impact": {"wallMs": 900}}]}""");
        assertEquals(19832, RerunPlan.sameFinding(baseline, "SmallFiles:write37.0").path("impact").path("wallMs")
                .asLong());
        assertEquals(5199, RerunPlan.sameFinding(baseline, "SmallFiles:read38.6").path("impact").path("wallMs")
                .asLong());
        assertEquals(900, RerunPlan.sameFinding(baseline, "SchedulerDelay:2.0").path("impact").path("wallMs")
                .asLong());
        assertTrue(RerunPlan.sameFinding(baseline, "JoinStrategy:37.0").isMissingNode());
        assertTrue(RerunPlan.sameFinding(baseline, "SmallFiles:merge37.0").isMissingNode());
    }

    @Test
    void heapAdviceBecomesTheJvmOptionsOfARunInItsOwnJvm() throws Exception {
        CorpusApp app = CorpusApps.find("failing-stage").orElseThrow();
        RerunPlan plan = RerunPlan.of(analysis("ExecutorGc", 2500, "spark.driver.memory", "700m",
                "spark.sql.shuffle.partitions", "5"), app, ALL, RerunPlan.Mode.SETTINGS);
        assertEquals(List.of("spark.driver.memory"), plan.jvmStartKeys());
        assertEquals(List.of("-XX:+UseParallelGC", "-Xmx700m"), plan.jvmOptions(List.of("-Xmx640m",
                "-XX:+UseParallelGC")));
        assertEquals(List.of("-Xmx2048m"), RerunPlan.of(analysis("ExecutorGc", 1, "spark.driver.memory", "2g"), app,
                ALL, RerunPlan.Mode.SETTINGS).jvmOptions(List.of()));

        Path log = AdviceRerun.runInOwnJvm(app, dir.resolve("own"), dir.resolve("data"), plan, true);
        JsonNode run = AdviceRerun.analyze(log);
        assertEquals("5", run.path("config").path("spark.sql.shuffle.partitions").asText());
        assertEquals("700m", run.path("config").path("spark.driver.memory").asText());
        // the driver's storage memory follows the 700 MiB heap, far below this test JVM's 3 GiB
        long driverMemory = run.path("executors").path(0).path("maxMemory").asLong();
        assertTrue(driverMemory > 0 && driverMemory < 700L * 1024 * 1024, "driver max memory " + driverMemory);
    }

    @Test
    void theLoopRecordsAlternatedRunsAndTheirPromises() throws Exception {
        CorpusApp app = CorpusApps.find("failing-stage").orElseThrow();
        AdviceRerun.Options o = new AdviceRerun.Options(LABELS, dir, 1, RerunPlan.Mode.AUTO);
        // a fixed first item, not the one of this run's analysis: on a loaded machine a slow start-up can put a
        // driver-time finding first, which would leave the app apart
        RerunPlan plan = RerunPlan.of(analysis("StageFailure:1.0", 300), app, ALL, RerunPlan.Mode.AUTO);
        RerunResult r = AdviceRerun.rerun(app, o, baseline -> plan);
        assertTrue(r.measured(), r.toString());
        assertEquals(1, r.baselineMs().size());
        assertEquals(1, r.fixedMs().size());
        assertEquals(1, r.promisedMs().size());
        for (String run : List.of("analysis", "fixed-1", "baseline-1")) {
            assertTrue(Files.isRegularFile(dir.resolve("runs").resolve(app.name()).resolve(run + ".json")), run);
        }
        assertTrue(RerunReport.markdown(List.of(r)).contains("| failing-stage | "));
    }

    @Test
    void totalsCountAnAppTheFixDidNotSpeedUpAsAWrongPromise() {
        RerunResult right = new RerunResult("a", "X (HIGH)", true, "k=v", null, false, List.of(3000L, 3100L, 2900L),
                List.of(2000L, 1900L, 2100L), List.of(1500L, 1500L, 1400L), "-");
        RerunResult slower = new RerunResult("b", "Y (LOW)", false, "k=v", null, false, List.of(1000L),
                List.of(1200L), List.of(500L), "-");
        RerunResult apart = new RerunResult("c", "-", false, "-", "no \"Fix this first\" item", false, null, null,
                null, "-");
        assertEquals(1000, right.saved());
        assertEquals(0.5, right.error(), 1e-9);
        assertEquals(Double.POSITIVE_INFINITY, slower.error());
        RerunReport.Totals t = RerunReport.totals(List.of(right, slower, apart));
        assertEquals(2, t.rerun());
        assertEquals(1, t.faster());
        assertEquals(Double.POSITIVE_INFINITY, t.medianError());
        String md = RerunReport.markdown(List.of(right, slower, apart));
        assertTrue(md.contains("| a | X (HIGH) | k=v | 3.0 | 2.0 | 1.5 | 1.0 | yes | +50 % | - |"), md);
        assertTrue(md.contains("| b | Y (LOW) (not a labelled cause) |"), md);
        assertTrue(md.contains("Made faster: 1/2 apps = 50 % (target ≥ 80 %)"), md);
        assertTrue(md.contains("| c | - | no \"Fix this first\" item |"), md);
    }

    @Test
    void namesThatDoNotExistFailWithOneLineNamingThem() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AdviceRerun.select(List.of("failing-stage", "no-such-app"), LABELS));
        assertTrue(e.getMessage().contains("'no-such-app'") && !e.getMessage().contains("\n"), e.getMessage());

        Path labels = Files.createDirectories(dir.resolve("labels"));
        e = assertThrows(IllegalArgumentException.class, () -> AdviceRerun.select(List.of("failing-stage"), labels));
        assertTrue(e.getMessage().contains("'failing-stage' has no label") && e.getMessage().contains("failing-stage"
                + ".json") && !e.getMessage().contains("\n"), e.getMessage());

        e = assertThrows(IllegalArgumentException.class, () -> CorpusRun.requireFixes(
                List.of(CorpusApps.find("streaming-keeps-up").orElseThrow())));
        assertTrue(e.getMessage().startsWith("corpus app 'streaming-keeps-up' has no fixed variant"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CorpusRun.putSetting(new LinkedHashMap<>(), "oops"));
        assertEquals("--conf needs spark.KEY=VALUE, got 'oops'", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RerunPlan.Mode.parse("sometimes"));
    }
}
