package io.sparkscope.store.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.heuristics.Finding;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The banners' own scanner reads what the writer (Jackson) and PostgreSQL's jsonb text form write, as Jackson does. */
class BannerTextTest {
    private static List<List<String>> fields(List<Finding> fs) {
        return fs.stream().map(f -> Arrays.asList(f.id(), f.heuristic(), f.severity().name(), f.title(), f.message()))
                .toList();
    }

    @Test
    void readsTheWritersJsonWithEveryEscape() throws Exception {
        List<List<String>> banners = List.of(
                List.of("f1", "DiskSpill", "HIGH", "Spill \"to disk\"", "stage 3 — 12 GiB\n\ttab \\ slash / é 🚀 \u0001"),
                List.of("f2", "StageFailure", "LOW", "", "x"));
        String json = new ObjectMapper().writeValueAsString(banners);
        List<Finding> fast = Sql.BannerScanner.scan(json);
        assertNotNull(fast, json);
        assertEquals(banners, fields(fast));
        assertEquals(banners, fields(Sql.banners(json)));
    }

    /** Escaped and plain strings in any order: the remembered next backslash never makes a string end early. */
    @Test
    void plainStringsBeforeAndAfterEscapedOnesReadWhole() throws Exception {
        List<List<String>> banners = List.of(
                List.of("f1", "A", "HIGH", "plain title", "plain message"),
                List.of("f2", "B", "LOW", "tab\there", "quote \"q\" and \\"),
                List.of("f3", "C", "LOW", "after", "all plain <>&'"),
                List.of("f4", "D", "HIGH", "\\", "\"" ));
        String json = new ObjectMapper().writeValueAsString(banners);
        assertEquals(banners, fields(Sql.BannerScanner.scan(json)));
        assertNull(Sql.BannerScanner.scan("[[\"f1\",\"A\",\"LOW\",\"t\",\"cut short]]"));
    }

    @Test
    void readsPostgresJsonbTextWithSpaces() {
        String json = "[[\"f1\", \"Skew\", \"LOW\", \"Task skew\", \"max 10 \\u00e9 \\\"x\\\"\"], [\"f2\", \"Gc\", \"HIGH\", \"t\", \"m\"]]";
        assertEquals(List.of(List.of("f1", "Skew", "LOW", "Task skew", "max 10 é \"x\""), List.of("f2", "Gc", "HIGH", "t", "m")),
                fields(Sql.BannerScanner.scan(json)));
        assertEquals(List.of(), Sql.BannerScanner.scan("[]"));
        assertEquals(List.of(), Sql.BannerScanner.scan(" [ ] "));
    }

    @Test
    void otherShapesGoToTheJsonParserAndBadTextGivesNoBanner() {
        String withNull = "[[\"f1\",\"Skew\",\"LOW\",null,\"m\"]]";
        assertNull(Sql.BannerScanner.scan(withNull));
        List<Finding> parsed = Sql.banners(withNull);
        assertEquals(1, parsed.size());
        assertEquals("Skew", parsed.get(0).heuristic());
        assertEquals("m", parsed.get(0).message());

        assertNull(Sql.BannerScanner.scan("[[\"f1\",\"Skew\""));
        assertEquals(List.of(), Sql.banners("[[\"f1\",\"Skew\""));
        assertEquals(List.of(), Sql.banners("not json"));
        assertEquals(List.of(), Sql.banners("[[\"f1\",\"Skew\",\"MEDIUM\",\"t\",\"m\"]]"), "unknown severity: skipped");
        assertEquals(List.of(), Sql.banners(null));
    }
}
