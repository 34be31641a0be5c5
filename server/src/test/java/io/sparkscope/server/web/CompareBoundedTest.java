package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.testing.SnapshotBuilder;
import io.sparkscope.server.web.model.Comparison;
import io.sparkscope.store.SnapshotWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /compare} of large runs stays a page: a bounded number of runs, stage positions and configuration rows,
 * and no rows for the values every run makes anew (its id, start time, driver host and port).
 */
class CompareBoundedTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static String base;

    @BeforeAll
    static void load() throws Exception {
        var ds = WebFixture.newDatabase();
        long start = WebFixture.NOW - 10 * WebFixture.HOUR;
        for (int i = 0; i < 7; i++) {
            var spec = SnapshotBuilder.syntheticSpec("app-wide-" + i, "wide", "bench", start + i * WebFixture.HOUR,
                    600_000L)
                    .withConf("spark.app.id", "app-wide-" + i)
                    .withConf("spark.app.startTime", String.valueOf(start + i * WebFixture.HOUR))
                    .withConf("spark.driver.host", "10.0.0." + i)
                    .withConf("spark.driver.port", String.valueOf(40_000 + i))
                    .withConf("spark.org.apache.hadoop.yarn.server.webproxy.amfilter.AmIpFilter.param.PROXY_URI_BASES",
                            "http://rm:8088/proxy/app-wide-" + i)
                    .withConf("spark.sql.shuffle.partitions", String.valueOf(200 * (i + 1)));
            for (int k = 0; k < 400; k++) {
                spec = spec.withConf("spark.custom.setting." + k, i == 0 ? "a" : "b");
            }
            // 500 jobs of two stages each: 1 000 stage positions
            var s = new SnapshotBuilder.SyntheticSpec(spec.appId(), null, spec.name(), spec.user(), spec.start(),
                    spec.durationMs(), true, spec.conf(), 500, 2, 1, null, 0, i);
            new SnapshotWriter().write(ds, SnapshotBuilder.synthetic(s), List.of());
        }
        base = OwnServer.over(ds).base();
    }

    @Test
    void runSpecificValuesAreLeftOutAndSaidSo() {
        String b = WebFixture.getAt(base, "/compare?apps=app-wide-0,app-wide-1").body();
        assertTrue(b.contains("data-key=\"spark.sql.shuffle.partitions\""), "a real difference stays");
        for (String key : List.of("spark.app.id", "spark.app.startTime", "spark.driver.host", "spark.driver.port")) {
            assertFalse(b.contains("data-key=\"" + key + "\""), key + " differs on every run: no row");
        }
        assertFalse(b.contains("data-key=\"spark.org.apache.hadoop.yarn.server.webproxy"), "the proxy's own URLs");
        int note = b.indexOf("id=\"config-left-out\"");
        assertTrue(note > 0, "says what was left out");
        assertTrue(b.substring(note, b.indexOf("</tr>", note)).contains("spark.driver.port"));
    }

    @Test
    void stagesAndConfigurationRowsAreBounded() throws Exception {
        var r = WebFixture.getAt(base, "/compare?apps=app-wide-0,app-wide-1,app-wide-2,app-wide-3,app-wide-4,app-wide-5");
        assertEquals(200, r.status());
        String b = r.body();
        assertEquals(Comparison.MAX_STAGE_ROWS, count(b, "class=\"stage-match\""), "the first positions only");
        assertTrue(b.contains("id=\"stages-left-out\"") && b.contains("700 more positions not shown"),
                "says how many were left out");
        assertTrue(count(b, "class=\"config-row") <= 19 + Comparison.MAX_CONFIG_ROWS);
        assertTrue(b.contains("more differing key"), "and how many keys");
        assertTrue(b.length() < 3_000_000, b.length() + " bytes");

        JsonNode api = JSON.readTree(WebFixture.getAt(base, "/api/v1/compare?apps=app-wide-0,app-wide-1").body());
        assertEquals(Comparison.MAX_STAGE_ROWS, api.get("stages").size());
        assertEquals(700, api.get("stagesNotShown").asInt());
        assertTrue(api.get("configNotShown").asInt() > 0);
        assertTrue(api.get("runSpecificKeys").toString().contains("spark.app.id"));
    }

    @Test
    void atMostSixRuns() {
        var seven = WebFixture.getAt(base, "/compare?apps=app-wide-0,app-wide-1,app-wide-2,app-wide-3,app-wide-4,"
                + "app-wide-5,app-wide-6");
        assertEquals(400, seven.status(), seven.body());
    }

    private static int count(String s, String needle) {
        int n = 0;
        for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
