package io.sparkscope.server.web.model;

import io.sparkscope.core.analysis.prediction.AdviceLedger;
import io.sparkscope.store.query.HistoryQuery;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A job's advice ledger is kept for the same recent runs, for a while, for a bounded number of jobs. */
class KeptLedgersTest {
    private static HistoryQuery.Run run(String appId, boolean complete, int findings) {
        return new HistoryQuery.Run(appId, null, "nightly", "alice", 1_000, 60_000, 120_000, 1L << 30, 0, 0, complete,
                findings > 0 ? "LOW" : null, findings, null);
    }

    @Test
    void theSameRunsReadTheLedgerOnceAndChangedRunsAgain() throws Exception {
        KeptLedgers kept = new KeptLedgers();
        AtomicInteger reads = new AtomicInteger();
        KeptLedgers.Query query = () -> {
            reads.incrementAndGet();
            return new ArrayList<AdviceLedger.Entry>();
        };
        List<HistoryQuery.Run> runs = List.of(run("app-1", true, 2), run("app-2", true, 1));
        List<AdviceLedger.Entry> first = kept.get(new KeptLedgers.Key("job", runs), query);
        assertSame(first, kept.get(new KeptLedgers.Key("job", List.copyOf(runs)), query), "an equal list of runs");
        assertEquals(1, reads.get());
        kept.get(new KeptLedgers.Key("job", List.of(run("app-1", true, 2), run("app-2", true, 1),
                run("app-3", false, 0))), query);
        assertEquals(2, reads.get(), "a new run: read again");
        kept.get(new KeptLedgers.Key("job", List.of(run("app-1", true, 2), run("app-2", true, 3))), query);
        assertEquals(3, reads.get(), "a run judged again: read again");
        kept.get(new KeptLedgers.Key("other job", runs), query);
        assertEquals(4, reads.get(), "another job: read");
    }

    @Test
    void aKeptLedgerExpiresAndTheJobsKeptAreBounded() throws Exception {
        KeptLedgers kept = new KeptLedgers(50_000_000L);
        AtomicInteger reads = new AtomicInteger();
        KeptLedgers.Query query = () -> {
            reads.incrementAndGet();
            return List.<AdviceLedger.Entry>of();
        };
        List<HistoryQuery.Run> runs = List.of(run("app-1", true, 1));
        kept.get(new KeptLedgers.Key("job", runs), query);
        Thread.sleep(80);
        kept.get(new KeptLedgers.Key("job", runs), query);
        assertEquals(2, reads.get());

        KeptLedgers many = new KeptLedgers();
        for (int i = 0; i < KeptLedgers.JOBS + 10; i++) {
            many.get(new KeptLedgers.Key("job-" + i, runs), query);
        }
        assertEquals(KeptLedgers.JOBS, many.size());
    }
}
