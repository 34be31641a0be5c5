package io.sparkscope.core.model;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StageNamesTest {
    /** As Spark 4 names a stage of a SQL query: the closure its thread pool ran. */
    private static final String SPARK4 = "$anonfun$withThreadLocalCaptured$2 at CompletableFuture.java:1768";
    /** As Spark 3 names the stages of a broadcast exchange (a real log: app-20200706201101-0003). */
    private static final String SPARK3 = "$anonfun$withThreadLocalCaptured$1 at FutureTask.java:266";

    @Test
    void closuresAndThreadPoolsAreInternalUserCallSitesAreNot() {
        assertTrue(StageNames.isInternal(SPARK4));
        assertTrue(StageNames.isInternal(SPARK3));
        assertTrue(StageNames.isInternal("run at ThreadPoolExecutor.java:1136"));
        assertFalse(StageNames.isInternal("foreach at <console>:26"));
        assertFalse(StageNames.isInternal("count at NightlyOrders.scala:42"));
        assertFalse(StageNames.isInternal(null));
    }

    @Test
    void anInternalNameShowsTheSqlDescriptionThenTheJobsDescriptionThenItsCallSite() {
        assertEquals("foreach at <console>:26", StageNames.readable(SPARK4, "foreach at <console>:26",
                "broadcast exchange (runId bb02)", SPARK4));
        assertEquals("broadcast exchange (runId bb02)", StageNames.readable(SPARK4, null,
                "broadcast exchange (runId bb02)", SPARK4));
        assertEquals("collect at Report.scala:10", StageNames.readable(SPARK4, " ", null, "collect at Report.scala:10"));
        assertEquals(SPARK4, StageNames.readable(SPARK4, null, null, SPARK4), "nothing better: the name as it is");
    }

    @Test
    void aUsersCallSiteIsKept() {
        assertEquals("count at NightlyOrders.scala:42", StageNames.readable("count at NightlyOrders.scala:42",
                "SELECT * FROM orders", "nightly", "count at NightlyOrders.scala:42"));
    }
}
