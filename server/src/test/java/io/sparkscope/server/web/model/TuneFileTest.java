package io.sparkscope.server.web.model;

import io.sparkscope.core.analysis.efficiency.Prices;
import io.sparkscope.core.analysis.efficiency.TunedWhatIf;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.Platform;
import io.sparkscope.core.heuristics.RecommendedSettings;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.redact.Redactor;
import io.sparkscope.store.query.HistoryQuery;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.List;
import java.util.Properties;

import static io.sparkscope.core.testing.SnapshotBuilder.dagApp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The properties file and --conf options for settings whose keys and values need escaping and quoting. */
class TuneFileTest {
    private static JobTuning tuning(SettingAdvice... advice) {
        AppSnapshot app = dagApp("tf").conf("spark.master", "yarn").durationMs(10_000).executors(2, 2)
                .job(0, 500, 5_500, 0).stage(0, 0).window(1_000, 5_000).tasks(2_000, 2_000, 2_000, 2_000).done()
                .build();
        Finding.Builder b = Finding.builder("Odd", Severity.LOW).title("odd\nvalues").impact(1_500, 6_000, "measured");
        for (SettingAdvice a : advice) {
            b.advise(a);
        }
        RecommendedSettings s = RecommendedSettings.of(List.of(b.build()), Platform.of(app),
                Redactor.defaultRedactor());
        HistoryQuery.Run run = new HistoryQuery.Run(app.appId(), null, "tf", "u", 1_000, 10_000, 0, 0, 0, 0, true,
                "LOW", 1, null);
        return new JobTuning("job with spaces", run, s, TunedWhatIf.of(app, s.values(), Prices.NONE));
    }

    private static SettingAdvice advise(String key, String value) {
        return new SettingAdvice(key, "", SettingAdvice.ValueSource.UNKNOWN, value, "because\nof it");
    }

    @Test
    void keysAndValuesComeBackAsTheyWereThroughPropertiesLoad() throws Exception {
        JobTuning t = tuning(advise("spark.driver.extraJavaOptions", " -XX:+UseG1GC -Dx=a\\b #not a comment"),
                advise("spark.odd=key:name", "v"), advise("spark.serializer",
                        "org.apache.spark.serializer.KryoSerializer"),
                advise("spark.kubernetes.memoryOverheadFactor", "0.2"));
        String text = TuneFile.properties(t);
        Properties p = new Properties();
        p.load(new StringReader(text));
        assertEquals(3, p.size(), text);
        assertEquals(" -XX:+UseG1GC -Dx=a\\b #not a comment", p.getProperty("spark.driver.extraJavaOptions"));
        assertEquals("v", p.getProperty("spark.odd=key:name"));
        // every comment stays one line: a reason with a line break does not start a property
        assertTrue(text.contains("#   why: Odd (odd values): because of it"), text);
        assertTrue(text.contains("#   expected saving: about 1.5 s of wall time"), text);
        assertTrue(text.contains("# Advised but not written:\n#   spark.kubernetes.memoryOverheadFactor=0.2: a"
                + " Kubernetes setting, and the run used YARN"), text);
        assertTrue(text.contains("#   with these settings: not modelled"), text);
        assertTrue(text.contains("#   not modelled: spark.driver.extraJavaOptions, spark.odd=key:name,"
                + " spark.serializer"), text);
    }

    @Test
    void aFixThatOnlyFreesIdleCoresSaysHowMuchCoreTimeNotThatItIsNotEstimated() {
        String s = TuneFile.saving(Impact.coreTime(7_200_000, "frees 2.00 idle core-hours; wall time unchanged"));
        assertTrue(s.contains("of idle executor core time freed, wall time unchanged"), s);
        assertTrue(s.contains("frees 2.00 idle core-hours"), s);
        assertEquals("not estimated", TuneFile.saving(Impact.NONE));
    }

    @Test
    void confOptionsAreQuotedForTheShellOnlyWhenNeeded() {
        JobTuning t = tuning(advise("spark.executor.extraJavaOptions", "-Dname='x y'"),
                advise("spark.executor.cores", "4"));
        assertEquals(List.of("--conf 'spark.executor.extraJavaOptions=-Dname='\\''x y'\\'''",
                "--conf spark.executor.cores=4"), TuneFile.confLines(t));
        assertEquals("job-with-spaces.properties", TuneFile.fileName(t.jobKey()));
        assertEquals("job.properties", TuneFile.fileName("../.."));
    }
}
