package io.sparkscope.server.web.page;

import io.sparkscope.core.event.TaskMetric;
import io.sparkscope.core.event.TaskMetrics;
import io.sparkscope.core.model.TaskRecord;
import io.sparkscope.server.web.model.StageTimelines;
import io.sparkscope.store.query.StageTimelineData;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stage timeline page from timeline.jte is the page the code wrote, byte for byte (a large sampled stage, a small
 * one with failed and killed attempts and more tasks at once than an executor's cores, an empty one), and
 * application, stage, executor and host names are escaped.
 */
class TimelineTemplateTest {
    private static final String EVIL = TaskPages.EVIL;

    /** Two executors of one core each running three tasks at once, one failed, one killed; hostile names. */
    static StageTimelines.Loaded hostile(boolean empty) {
        List<TaskRecord> kept = new ArrayList<>();
        String[] statuses = {"SUCCESS", "FAILED", "KILLED", "SUCCESS", "SUCCESS", "SUCCESS"};
        for (int i = 0; i < (empty ? 0 : 6); i++) {
            TaskMetrics m = i == 4 ? null : TaskMetrics.builder().set(TaskMetric.EXECUTOR_RUN_TIME, 400 + 10L * i)
                    .set(TaskMetric.EXECUTOR_DESERIALIZE_TIME, 20).set(TaskMetric.JVM_GC_TIME, 30).build();
            kept.add(TaskRecord.builder().taskId(i).index(i).partitionId(i)
                    .executorId(i % 2 == 0 ? "1 " + EVIL : "2").host("host " + EVIL).locality("PROCESS_LOCAL")
                    .launchTime(1_000_000 + 5L * i).finishTime(1_000_500 + 7L * i).status(statuses[i])
                    .endReason(statuses[i].equals("SUCCESS") ? "Success" : "ExceptionFailure").metrics(m).build());
        }
        List<StageTimelineData.ExecutorRow> rows = List.of(
                new StageTimelineData.ExecutorRow("1 " + EVIL, "host " + EVIL, 1, 1, -1),
                new StageTimelineData.ExecutorRow("2", "host " + EVIL, 0, 1, -1));
        StageTimelineData d = new StageTimelineData("app-1 " + EVIL, "2", "ETL " + EVIL + " naïve", 3, 1,
                "map at " + EVIL, "FAILED", 6, 4, 1, 1, 1, 2, "ALL", kept, rows, Map.of());
        return StageTimelines.Loaded.of(d);
    }

    @Test
    void sameBytesAsTheCodeForEveryShapeOfStage() {
        for (StageTimelines.Loaded l : List.of(TimelineViewTest.stage(3_000, 8, 4, 7), hostile(false), hostile(true))) {
            SameBytes.assertSame(CodeTimelineView.render(l), TimelineView.render(l), l.data().stageName());
        }
    }

    @Test
    void escapesNames() {
        String html = TimelineView.render(hostile(false));
        assertFalse(html.contains("<script>"), html);
        assertTrue(html.contains("&#8592; ETL &lt;script&gt;"), "the application's name");
        assertTrue(html.contains("<p class=\"muted\">map at &lt;script&gt;"), "the stage's name");
        assertTrue(html.contains("data-executor=\"1 &lt;script&gt;"), "an executor id in an attribute");
        assertTrue(html.contains("<tr class=\"overflow\""), "an executor running more tasks than its cores");
    }
}
