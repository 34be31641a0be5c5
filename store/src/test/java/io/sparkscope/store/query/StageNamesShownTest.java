package io.sparkscope.store.query;

import io.sparkscope.core.event.SparkEvent;
import io.sparkscope.core.recorder.Recorder;
import io.sparkscope.core.testing.SqlJobEvents;
import io.sparkscope.store.TestDb;
import io.sparkscope.store.ingest.IngestService;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A stage Spark 4 names after its own thread pool's closure is shown by the SQL query it ran for, alike in the stage
 * table (and the comparison built on it), the task list and the timeline.
 */
class StageNamesShownTest {
    private static final long T0 = 1_764_400_000_000L;
    private static final String SPARK4 = "$anonfun$withThreadLocalCaptured$2 at CompletableFuture.java:1768";

    @Test
    void anInternalStageNameReadsAsItsQuery() throws Exception {
        DataSource ds = TestDb.migrated();
        Recorder r = new Recorder();
        r.onEvent(new SparkEvent.ApplicationStart("names", "app-stage-names", null, T0, "alice"));
        r.onEvent(new SparkEvent.EnvironmentUpdate(Map.of("spark.master", "local[2]"), Map.of(), Map.of(), Map.of()));
        SqlJobEvents.events(0, T0, 3, false, SPARK4).forEach(r::onEvent);
        SqlJobEvents.events(1, T0, 3, false, "count at Orders.scala:12").forEach(r::onEvent);
        r.onEvent(new SparkEvent.ApplicationEnd(T0 + 5_000));
        IngestService.builder(ds).build().ingest(r.snapshot(), List.of());

        List<StageRow> stages = new AppDetailQuery(ds).load(new AppDetailQuery.Ref("app-stage-names", null), T0)
                .orElseThrow().stages();
        assertEquals(List.of("query 0", "count at Orders.scala:12"), stages.stream().map(StageRow::name).toList(),
                "the closure's stage by its query, a user's call site as it is");
        assertEquals("query 0", new TimelineQuery(ds).load("app-stage-names", null, 0, 0).data().stageName());
    }
}
