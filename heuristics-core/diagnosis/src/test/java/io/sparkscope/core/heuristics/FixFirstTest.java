package io.sparkscope.core.heuristics;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FixFirstTest {
    private static Finding finding(String heuristic, String location, Severity severity, long wallMs, String stage,
                                   String recommendation, SettingAdvice advice) {
        Finding.Builder b = Finding.builder(heuristic, severity).location(location).title(heuristic + " " + location)
                .recommendation(recommendation).impact(wallMs, 0, wallMs > 0 ? "measured" : "");
        if (stage != null) {
            b.stage(stage);
        }
        if (advice != null) {
            b.advise(advice);
        }
        return b.build();
    }

    private static SettingAdvice set(String key, String value) {
        return new SettingAdvice(key, "1", SettingAdvice.ValueSource.DEFAULT, value, "why");
    }

    @Test
    void aHighFindingWithoutAnEstimateComesAfterTheEstimatedOnesSayingSo() {
        Finding unknown = finding("JobFailure", "", Severity.HIGH, 0, null, "fix the error", null);
        Finding low = finding("SmallTasks", "1.0", Severity.LOW, 0, "1.0", "fewer tasks", null);
        Finding skew = finding("StageSkew", "3.0", Severity.LOW, 5_000, "3.0", "salt the key", null);
        FixFirst ff = FixFirst.of(List.of(unknown, low, skew), 60_000);
        assertEquals(List.of("StageSkew:3.0", "JobFailure"), ff.items().stream().map(FixFirst.Item::findingId).toList(),
                "estimated first, the HIGH without estimate after, a LOW without estimate not at all");
        FixFirst.Item last = ff.items().get(1);
        assertFalse(last.savingEstimated());
        assertTrue(last.sentence().contains("saving not estimated"), last.sentence());
        assertTrue(ff.items().get(0).savingEstimated());
        assertTrue(ff.toText("").contains("saving not estimated"), ff.toText(""));
    }

    @Test
    void aFindingThatOnlyFreesIdleCoresIsListedAfterThoseThatShortenTheRunMostCoreTimeFirst() {
        Finding small = Finding.builder("IdleCores", Severity.LOW).location("a").title("idle a")
                .impact(Impact.coreTime(60_000, "frees 0.02 idle core-hours; wall time unchanged")).build();
        Finding large = Finding.builder("IdleCores", Severity.LOW).location("b").title("idle b")
                .impact(Impact.coreTime(600_000, "frees 0.17 idle core-hours; wall time unchanged")).build();
        Finding skew = finding("StageSkew", "3.0", Severity.LOW, 5_000, "3.0", "salt the key", null);
        FixFirst ff = FixFirst.of(List.of(small, large, skew), 60_000);
        assertEquals(List.of("StageSkew:3.0", "IdleCores:b", "IdleCores:a"),
                ff.items().stream().map(FixFirst.Item::findingId).toList(),
                "a shorter run first, then the idle cores freed, most first");
        FixFirst.Item idle = ff.items().get(1);
        assertTrue(idle.savingEstimated());
        assertTrue(idle.sentence().contains("could free about 10 min 00 s of idle executor core time"), idle.sentence());
        assertTrue(idle.sentence().contains("wall time unchanged"), idle.sentence());
        assertFalse(idle.sentence().contains("not estimated"), idle.sentence());
    }

    @Test
    void findingsWithOneRemedyShareOneItemNamingTheOthers() {
        Finding spill = finding("DiskSpill", "4.0", Severity.HIGH, 9_000, "4.0", "more memory",
                set("spark.executor.memory", "8g"));
        Finding gc = finding("ExecutorGc", "", Severity.HIGH, 7_000, null, "more memory too",
                set("spark.executor.memory", "8g"));
        Finding skew = finding("StageSkew", "4.0", Severity.HIGH, 6_000, "4.0", "salt the key", null);
        Finding fail = finding("TaskFailure", "6.0", Severity.HIGH, 5_000, "6.0", "fix the error", null);
        Finding loop = finding("DriverTime", "", Severity.LOW, 4_000, null, "fix the error", null);
        Finding tiny = finding("SmallTasks", "8.0", Severity.LOW, 3_000, "8.0", "fewer tasks", null);
        FixFirst ff = FixFirst.of(List.of(spill, gc, skew, fail, loop, tiny), 60_000);
        assertEquals(List.of("DiskSpill:4.0", "TaskFailure:6.0", "SmallTasks:8.0"),
                ff.items().stream().map(FixFirst.Item::findingId).toList());
        // same setting advised, same stage; the same recommendation words
        assertEquals(List.of("ExecutorGc", "StageSkew:4.0"), ff.items().get(0).also());
        assertEquals(List.of("DriverTime"), ff.items().get(1).also());
        assertTrue(ff.items().get(0).sentence().contains("the same fix also covers ExecutorGc  and StageSkew 4.0"),
                ff.items().get(0).sentence());
    }

    @Test
    void aSavingTooSmallToNoticeComesAfterHoursOfIdleCoresAndMinutesOfShorterRunBeforeThem() {
        // an interactive session of 9 min: a few failed attempts whose retries cost 0.4 s, executors idle 17 min
        Finding failures = Finding.builder("TaskFailure", Severity.LOW).location("0.0").title("failures")
                .impact(Impact.of(413, 589, "the failed attempts' task time")).build();
        Finding idle = Finding.builder("IdleCores", Severity.HIGH).location("").title("idle")
                .impact(Impact.coreTime(1_022_000, "frees 0.28 idle core-hours; wall time unchanged")).build();
        FixFirst ff = FixFirst.of(List.of(failures, idle), 535_000);
        assertEquals(List.of("IdleCores", "TaskFailure:0.0"), ff.items().stream().map(FixFirst.Item::findingId).toList(),
                "0.4 s of a 9 min run is below 1 % of it: the idle core time is the larger cost");
        // a saving of 10 s (2 % of the run) still shortens it noticeably and stays ahead of the idle cores
        Finding skew = finding("StageSkew", "3.0", Severity.LOW, 10_000, "3.0", "salt the key", null);
        assertEquals(List.of("StageSkew:3.0", "IdleCores", "TaskFailure:0.0"),
                FixFirst.of(List.of(failures, idle, skew), 535_000).items().stream().map(FixFirst.Item::findingId)
                        .toList());
        // a HIGH finding keeps its place however small its saving: it was judged serious for more than its time
        Finding nearlyFailed = Finding.builder("TaskFailure", Severity.HIGH).location("0.0").title("failures")
                .impact(Impact.of(413, 589, "the failed attempts' task time")).build();
        assertEquals(List.of("TaskFailure:0.0", "IdleCores"),
                FixFirst.of(List.of(idle, nearlyFailed), 535_000).items().stream().map(FixFirst.Item::findingId)
                        .toList());
        // with the application's time unknown, any saving of wall time counts as one
        assertEquals(List.of("TaskFailure:0.0", "IdleCores"),
                FixFirst.of(List.of(failures, idle), 0).items().stream().map(FixFirst.Item::findingId).toList());
    }
}
