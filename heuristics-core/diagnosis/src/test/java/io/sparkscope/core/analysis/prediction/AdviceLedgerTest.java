package io.sparkscope.core.analysis.prediction;

import io.sparkscope.core.analysis.prediction.AdviceLedger.Outcome;
import io.sparkscope.core.analysis.prediction.AdviceLedger.RunRecord;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.FixFirst;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdviceLedgerTest {
    static Finding advising(String heuristic, String key, String now, String value, long promisedWallMs) {
        return Finding.builder(heuristic, Severity.HIGH).title(heuristic).message("m").recommendation("set " + key + " to " + value)
                .impact(promisedWallMs, 2 * promisedWallMs, "estimate")
                .advise(new SettingAdvice(key, now, SettingAdvice.ValueSource.SET, value, "why")).build();
    }

    private static final String PARTITIONS = "spark.sql.shuffle.partitions";
    private static final long GB = 1L << 30;

    @Test
    void adviceAppliedInTheNextRunIsComparedWithWhatItPromised() {
        Finding f = advising("Partitioning", PARTITIONS, "2000", "200", 30_000);
        List<AdviceLedger.Entry> ledger = AdviceLedger.of(List.of(
                new RunRecord("a", 100_000, 400_000, GB, -1, Map.of(PARTITIONS, "2000"), List.of(f)),
                new RunRecord("b", 60_000, 250_000, GB, -1, Map.of(PARTITIONS, "200"), List.of())));
        assertEquals(1, ledger.size());
        AdviceLedger.Entry e = ledger.get(0);
        assertEquals(Outcome.HELPED, e.outcome());
        assertEquals("b", e.appliedIn());
        assertTrue(e.asAdvised());
        assertEquals(40_000, e.savedWallMs());
        assertEquals(150_000, e.savedTaskMs());
        assertEquals(30_000, e.promisedWallMs());
        assertEquals(0.4, e.perByteSavedShare(), 1e-9);
        assertEquals("spark.sql.shuffle.partitions=200 (was 2000), advised by Partitioning in a: applied in b; wall"
                + " time 40.0 s less (promised 30.0 s less), task time 2 min 30 s less (promised 1 min 00 s less), wall"
                + " time per byte of input 40 % less: it helped.", e.sentence());
    }

    @Test
    void theCoresHeldTheClusterBillsAreComparedToo() {
        // fewer, fuller executors can take as long and still cost less: the ledger says what the cluster billed
        Finding f = advising("IdleCores", "spark.executor.instances", "8", "4", 0);
        List<AdviceLedger.Entry> ledger = AdviceLedger.of(List.of(
                new RunRecord("a", 100_000, 400_000, GB, 8 * 3_600_000L, Map.of("spark.executor.instances", "8"),
                        List.of(f)),
                new RunRecord("b", 100_000, 400_000, GB, 4 * 3_600_000L, Map.of("spark.executor.instances", "4"),
                        List.of())));
        AdviceLedger.Entry e = ledger.get(0);
        assertTrue(e.costKnown());
        assertEquals(4 * 3_600_000L, e.savedCoreMs());
        assertTrue(e.sentence().contains("cores held 4.0 core-hours less"), e.sentence());
        assertEquals(4 * 3_600_000L, e.toMap().get("savedCoreMs"));

        // unknown for either run: not guessed
        AdviceLedger.Entry unknown = AdviceLedger.of(List.of(
                new RunRecord("a", 100_000, 400_000, GB, -1, Map.of("spark.executor.instances", "8"), List.of(f)),
                new RunRecord("b", 100_000, 400_000, GB, 4 * 3_600_000L, Map.of("spark.executor.instances", "4"),
                        List.of()))).get(0);
        assertFalse(unknown.costKnown());
        assertFalse(unknown.sentence().contains("cores held"), unknown.sentence());
        assertNull(unknown.toMap().get("savedCoreMs"));
    }

    @Test
    void adviceAppliedThatDidNotHelpIsPutAfterTheOthersInTheLaterRun() {
        Finding partitions = advising("Partitioning", PARTITIONS, "2000", "200", 30_000);
        Finding memory = advising("ExecutorMemory", "spark.executor.memory", "4g", "8g", 10_000);
        // the input doubled and the time doubled: per byte nothing was saved, though the wall time grew
        List<AdviceLedger.Entry> ledger = AdviceLedger.of(List.of(
                new RunRecord("a", 100_000, 400_000, GB, -1, Map.of(PARTITIONS, "2000"), List.of(partitions)),
                new RunRecord("b", 200_000, 800_000, 2 * GB, -1, Map.of(PARTITIONS, "200"), List.of())));
        assertEquals(Outcome.DID_NOT_HELP, ledger.get(0).outcome());
        assertTrue(ledger.get(0).sentence().endsWith("wall time per byte of input 0.0 % less: it did not help."),
                ledger.get(0).sentence());

        Map<String, String> tried = AdviceLedger.notHelped(ledger, Set.of("a", "b"));
        assertEquals(Set.of(PARTITIONS), tried.keySet());
        assertTrue(AdviceLedger.notHelped(ledger, Set.of("a")).isEmpty(), "not for a run before it was applied");
        // the later run advises it again, with the largest saving: it is no longer first
        Finding again = advising("Partitioning", PARTITIONS, "200", "100", 60_000);
        FixFirst plain = FixFirst.of(List.of(again, memory), 200_000);
        assertEquals("Partitioning", plain.items().get(0).findingId(), "ranked first by its saving");
        FixFirst fix = FixFirst.of(List.of(again, memory), 200_000, tried);
        assertEquals("ExecutorMemory", fix.items().get(0).findingId());
        assertEquals("Partitioning", fix.items().get(1).findingId());
        assertTrue(fix.items().get(1).sentence().contains("Put after the others: tried on an earlier run of this job,"
                + " spark.sql.shuffle.partitions=200 (was 2000)"), fix.items().get(1).sentence());
        assertFalse(fix.items().get(0).sentence().contains("Put after"));
    }

    @Test
    void adviceTheNextRunRepeatsIsListedOnceAsNotApplied() {
        Finding f = advising("Partitioning", PARTITIONS, "2000", "200", 30_000);
        List<AdviceLedger.Entry> ledger = AdviceLedger.of(List.of(
                new RunRecord("a", 100_000, 400_000, GB, -1, Map.of(PARTITIONS, "2000"), List.of(f)),
                new RunRecord("b", 100_000, 400_000, GB, -1, Map.of(PARTITIONS, "2000"), List.of(f))));
        assertEquals(1, ledger.size());
        assertEquals("b", ledger.get(0).givenIn());
        assertEquals(Outcome.NOT_APPLIED, ledger.get(0).outcome());
        assertTrue(ledger.get(0).sentence().endsWith(": not applied yet."));
    }
}
