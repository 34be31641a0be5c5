package io.sparkscope.server.web;

import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.core.event.SparkEvent.PlanMetric;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.SqlExecutionSummary;
import io.sparkscope.core.model.SqlMetricAggregate;
import io.sparkscope.core.sql.PlanGraph;
import io.sparkscope.core.sql.SparkMetricText;
import io.sparkscope.store.SnapshotWriter;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SQL views a completed application keeps rendered, over real PostgreSQL: served again unchanged while the
 * stored rows stay as they are; after any rewrite (a re-import that changes only one metric row, or only the
 * execution's description, a reanalyze that changes only a finding's text) the new content and never the kept one;
 * a running application's pages never kept. {@code X-Sparkscope-Cache} tells how each answer was made.
 */
class SqlKeptPagesTest {
    private static final String PAGE = "/apps/app-kept-sql/sql/0";
    private static final String LIST = "/apps/app-kept-sql/sql";
    private static final String API = "/api/v1/apps/app-kept-sql/sql/0?details=true";

    private static AppSnapshot app(boolean complete, long start) {
        var spec = SnapshotBuilder.syntheticSpec("app-kept-sql", "kept sql", "tester", start, 600_000L);
        spec = new SnapshotBuilder.SyntheticSpec(spec.appId(), spec.attemptId(), spec.name(), spec.user(), spec.start(),
                spec.durationMs(), complete, spec.conf(), spec.jobs(), spec.stagesPerJob(), spec.tasksPerStage(),
                spec.failureReason(), spec.spillPerTask(), spec.seed());
        return SqlPlanLoad.withPlan(SnapshotBuilder.synthetic(spec), 60);
    }

    /** The first non-cluster operator with a "sum" metric: where the finding sits and whose value changes. */
    private static PlanGraph.Node operator(AppSnapshot s) {
        return operators(s).get(0);
    }

    private static List<PlanGraph.Node> operators(AppSnapshot s) {
        List<PlanGraph.Node> out = PlanGraph.of(s.sqlExecutions().get(0).plan()).nodes().stream()
                .filter(n -> !n.cluster() && n.metrics().stream().anyMatch(m -> m.metricType().equals("sum")))
                .toList();
        assertTrue(out.size() >= 2, "the synthetic plan has operators with a sum metric");
        return out;
    }

    private static Finding finding(AppSnapshot s, String title) {
        return finding(s, title, operator(s));
    }

    private static Finding finding(AppSnapshot s, String title, PlanGraph.Node n) {
        return new Finding("sort-spill:0", "sort-spill", Severity.HIGH, title, "spills to disk", "",
                List.of(), List.of(), List.of(), Map.of(Finding.PLAN_NODES,
                List.of(Map.of("sqlExecutionId", 0L, "nodeId", n.id(), "nodeName", n.name()))));
    }

    /** The snapshot with one sum metric of the operator given another total: no other row changes. */
    private static AppSnapshot withTotal(AppSnapshot s, long total) {
        SqlExecutionSummary sql = s.sqlExecutions().get(0);
        PlanMetric m = sumMetric(s);
        Map<Long, SqlMetricAggregate> metrics = new HashMap<>(sql.metrics());
        SqlMetricAggregate a = metrics.get(m.accumulatorId());
        metrics.put(m.accumulatorId(), new SqlMetricAggregate(a.accumulatorId(), a.metricType(), total,
                a.count(), a.min(), a.median(), a.lowerMedian(), a.max(), a.maxStageId(), a.maxStageAttemptId(),
                a.maxTaskId(), a.reportedValues(), a.exact(), a.stageIds()));
        return withExecution(s, sql.toBuilder().metrics(metrics).build());
    }

    private static AppSnapshot withDescription(AppSnapshot s, String description) {
        SqlExecutionSummary sql = s.sqlExecutions().get(0);
        return withExecution(s, sql.toBuilder().description(description).build());
    }

    private static AppSnapshot withExecution(AppSnapshot s, SqlExecutionSummary sql) {
        return SnapshotBuilder.copy(s).sqlExecutions(List.of(sql)).build();
    }

    private static PlanMetric sumMetric(AppSnapshot s) {
        return operator(s).metrics().stream().filter(m -> m.metricType().equals("sum")).findFirst().orElseThrow();
    }

    private static String metricText(AppSnapshot s) {
        SqlMetricAggregate a = s.sqlExecutions().get(0).metrics().get(sumMetric(s).accumulatorId());
        return SparkMetricText.of(a).replace('\n', ' ').strip();
    }

    private static String cache(WebFixture.Response r) {
        return r.headers().firstValue("X-Sparkscope-Cache").orElse("(none)");
    }

    private static String updatedAt(DataSource ds) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT CAST(updated_at AS text) || '/' || event_count FROM application"
                     + " WHERE app_id = 'app-kept-sql'")) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    @Test
    void completedApplicationsViewsAreKeptUntilARewriteChangesThem() throws Exception {
        DataSource ds = WebFixture.newDatabase();
        AppSnapshot s = app(true, WebFixture.NOW - 7_200_000L);
        new SnapshotWriter().write(ds, s, List.of(finding(s, "Sort spills <first>")));
        try (OwnServer server = OwnServer.over(ds)) {
            for (String path : List.of(PAGE, LIST, API)) {
                var first = WebFixture.getAt(server.base(), path);
                assertEquals(200, first.status(), path + ": " + first.body());
                assertEquals("miss", cache(first), path);
                var again = WebFixture.getAt(server.base(), path);
                assertEquals("hit", cache(again), path + " is served from what was kept");
                assertEquals(first.body(), again.body(), path + " is served again unchanged");
                assertEquals(first.headers().firstValue("Content-Type"), again.headers().firstValue("Content-Type"));
            }
            String page = WebFixture.getAt(server.base(), PAGE).body();
            assertTrue(page.contains("Sort spills &lt;first&gt;"), "the finding is on the page");
            assertTrue(page.contains(metricText(s)), "the metric's value is on the page");
            assertFalse(page.contains("live-status"), "a completed application's page has no live line");
            assertTrue(WebFixture.getAt(server.base(), LIST).body().contains("Sort spills &lt;first&gt;"),
                    "the tab shows the worst finding");

            // a gzip client gets the same page compressed (and the kept copy of it the second time)
            for (String expected : List.of("hit", "hit")) {
                HttpResponse<byte[]> z = WebFixture.HTTP.send(HttpRequest.newBuilder(URI.create(server.base() + PAGE))
                        .header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray());
                assertEquals("gzip", z.headers().firstValue("Content-Encoding").orElse(""));
                assertEquals(expected, z.headers().firstValue("X-Sparkscope-Cache").orElse(""));
                try (var in = new GZIPInputStream(new ByteArrayInputStream(z.body()))) {
                    assertEquals(page, new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
            }

            // re-import where only one metric row of the execution changed: the application row stays as it was
            String before = updatedAt(ds);
            AppSnapshot changedMetric = withTotal(s, 987_654_321L);
            assertNotEquals(metricText(s), metricText(changedMetric));
            new SnapshotWriter().overwrite(ds, changedMetric, List.of(finding(s, "Sort spills <first>")));
            assertEquals(before, updatedAt(ds), "the rewrite left the application row alone");
            var afterMetric = WebFixture.getAt(server.base(), PAGE);
            assertEquals("miss", cache(afterMetric), "the changed metric row is a new version");
            assertTrue(afterMetric.body().contains(metricText(changedMetric)), "the new value is shown");
            assertFalse(afterMetric.body().contains(metricText(s)), "not the kept page's value");
            var apiAfterMetric = WebFixture.getAt(server.base(), API);
            assertEquals("miss", cache(apiAfterMetric));
            assertTrue(apiAfterMetric.body().contains(SparkMetricText.rest(changedMetric.sqlExecutions().get(0)
                    .metrics().get(sumMetric(s).accumulatorId())).replace("\n", "\\n")), apiAfterMetric.body());
            assertEquals("hit", cache(WebFixture.getAt(server.base(), PAGE)));

            // re-import with another description: the execution row changed, the page and the tab show it
            AppSnapshot described = withDescription(changedMetric, "nightly <totals> v2");
            new SnapshotWriter().overwrite(ds, described, List.of(finding(s, "Sort spills <first>")));
            for (String path : List.of(PAGE, LIST)) {
                var r = WebFixture.getAt(server.base(), path);
                assertEquals("miss", cache(r), path);
                assertTrue(r.body().contains("nightly &lt;totals&gt; v2"), path + " shows the new description");
                assertFalse(r.body().contains("big plan &lt;query&gt;"), path + " not the old one");
            }

            // a reanalyze that only moves the finding to another operator (its details): the application row,
            // which holds the findings' number, severity and texts, stays as it was
            PlanGraph.Node first = operator(s);
            PlanGraph.Node second = operators(s).get(1);
            String onFirst = "class=\"node-link\" href=\"#node-" + first.id() + "\"";
            String onSecond = "class=\"node-link\" href=\"#node-" + second.id() + "\"";
            assertTrue(WebFixture.getAt(server.base(), PAGE).body().contains(onFirst));
            before = updatedAt(ds);
            new SnapshotWriter().write(ds, described, List.of(finding(s, "Sort spills <first>", second)));
            assertEquals(before, updatedAt(ds), "the application row did not change");
            var moved = WebFixture.getAt(server.base(), PAGE);
            assertEquals("miss", cache(moved));
            assertTrue(moved.body().contains(onSecond), "the finding sits on its new operator");
            assertFalse(moved.body().contains(onFirst), "not on the old one");

            // a reanalyze that changes the finding's title
            new SnapshotWriter().write(ds, described, List.of(finding(s, "Sort spills <second>", second)));
            for (String path : List.of(PAGE, LIST)) {
                var r = WebFixture.getAt(server.base(), path);
                assertEquals("miss", cache(r), path);
                assertTrue(r.body().contains("Sort spills &lt;second&gt;"), path + " shows the new finding");
                assertFalse(r.body().contains("Sort spills &lt;first&gt;"), path + " not the old one");
                assertEquals("hit", cache(WebFixture.getAt(server.base(), path)), path);
            }

            // a gzip client after the rewrite gets the new page, not the compressed old one
            HttpResponse<byte[]> z = WebFixture.HTTP.send(HttpRequest.newBuilder(URI.create(server.base() + PAGE))
                    .header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray());
            try (var in = new GZIPInputStream(new ByteArrayInputStream(z.body()))) {
                assertTrue(new String(in.readAllBytes(), StandardCharsets.UTF_8).contains("Sort spills &lt;second&gt;"));
            }

            var missing = WebFixture.getAt(server.base(), "/apps/app-kept-sql/sql/7");
            assertEquals(404, missing.status(), "an execution not stored is still a 404");
            assertEquals(404, WebFixture.getAt(server.base(), "/apps/app-kept-sql/sql/7").status());
        }
    }

    @Test
    void aRunningApplicationsPagesAreNeverKept() throws Exception {
        DataSource ds = WebFixture.newDatabase();
        AppSnapshot s = app(false, WebFixture.NOW - 600_000L);
        assertFalse(s.complete());
        new SnapshotWriter().write(ds, s, List.of(finding(s, "Sort spills <first>")));
        // the clock just after the last event: the application is running
        try (OwnServer server = OwnServer.over(ds, () -> s.lastEventTime() + 1_000)) {
            for (String path : List.of(PAGE, LIST, API)) {
                for (int i = 0; i < 3; i++) {
                    var r = WebFixture.getAt(server.base(), path);
                    assertEquals(200, r.status(), path + ": " + r.body());
                    assertEquals("bypass", cache(r), path + " of a running application is rendered every time");
                }
            }
            assertTrue(WebFixture.getAt(server.base(), PAGE).body().contains("live-status"),
                    "a running application's page updates itself");
        }
    }
}
