package io.sparkscope.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkscope.core.testing.SnapshotBuilder;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

import static io.sparkscope.server.web.WebFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ?format=csv|jsonl} on the list answers: the same rows as their JSON, read back with a CSV parser. */
class ExportWebTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void csvAndJsonLinesHoldTheRowsOfTheJsonAnswer() throws Exception {
        for (String[] c : new String[][]{{"/api/v1/apps?limit=500", "appId"},
                {"/api/v1/apps?limit=3&offset=2&user=alice", "appId"},
                {"/api/v1/apps/app-bigmem/findings", "heuristic"},
                {"/api/v1/apps/application_1795_0001/1/stages", "stageId"}}) {
            String path = c[0];
            JsonNode whole = JSON.readTree(get(path).body());
            JsonNode rows = whole.isArray() ? whole : whole.get("apps");
            assertTrue(rows.size() > 0, path);
            String sep = path.contains("?") ? "&" : "?";

            var csv = get(path + sep + "format=csv");
            assertEquals(200, csv.status(), csv.body());
            assertEquals("text/csv; charset=utf-8", csv.headers().firstValue("Content-Type").orElse(""));
            assertTrue(csv.headers().firstValue("Content-Disposition").orElse("").startsWith("attachment;"));
            List<CSVRecord> records = parse(csv.body());
            assertEquals(rows.size(), records.size(), path + ": one CSV row per JSON element");
            for (int i = 0; i < rows.size(); i++) {
                assertEquals(rows.get(i).get(c[1]).asText(), records.get(i).get(c[1]), path + " row " + i);
            }

            var jsonl = get(path + sep + "format=jsonl");
            assertEquals(200, jsonl.status());
            String[] lines = jsonl.body().split("\n");
            assertEquals(rows.size(), lines.length, path);
            for (int i = 0; i < lines.length; i++) {
                assertEquals(rows.get(i), JSON.readTree(lines[i]), path + " line " + i);
            }
        }
    }

    @Test
    void nestedFiguresAreDottedColumnsAndListsJsonText() throws Exception {
        JsonNode apps = JSON.readTree(get("/api/v1/apps?limit=500").body()).get("apps");
        List<CSVRecord> records = parse(get("/api/v1/apps?limit=500&format=csv").body());
        int bigmem = -1;
        for (int i = 0; i < apps.size(); i++) {
            if (apps.get(i).get("appId").asText().equals("app-bigmem")) {
                bigmem = i;
            }
        }
        JsonNode app = apps.get(bigmem);
        CSVRecord row = records.get(bigmem);
        assertEquals(app.get("efficiency").get("coreHoursWasted").asText(), row.get("efficiency.coreHoursWasted"));
        assertEquals(app.get("findings"), JSON.readTree(row.get("findings")));
        assertEquals(String.valueOf(WebFixture.TOTAL_APPS),
                get("/api/v1/apps?limit=1&format=csv").headers().firstValue("X-Total-Count").orElse(""));
    }

    @Test
    void unknownFormatIs400NamingTheParameter() throws Exception {
        for (String path : List.of("/api/v1/apps?format=xlsx", "/api/v1/apps/app-bigmem/findings?format=xml",
                "/api/v1/apps/app-bigmem/stages?format=CSV2")) {
            var r = get(path);
            assertEquals(400, r.status(), path);
            JsonNode e = JSON.readTree(r.body());
            assertEquals("format", e.get("parameter").asText(), path);
            assertTrue(e.get("error").asText().contains("csv"), e.toString());
        }
    }

    /** Application names are the user's: a cell a spreadsheet would run as a formula is quoted, the JSON is not. */
    @Test
    void formulaLikeNamesAreNeutralisedInCsvOnly() throws Exception {
        DataSource ds = WebFixture.newDatabase();
        List<String> names = List.of("=HYPERLINK(\"http://evil.example\",\"x\")", "+1+2", "-2+3", "@SUM(A1)",
                "\tTabbed", "plain, with \"quotes\"\nand a newline");
        for (int i = 0; i < names.size(); i++) {
            WebFixture.write(ds, SnapshotBuilder.synthetic(SnapshotBuilder.syntheticSpec("app-f" + i, names.get(i),
                    "mallory", WebFixture.NOW - (i + 1) * WebFixture.HOUR, 60_000)));
        }
        try (OwnServer own = OwnServer.over(ds)) {
            JsonNode apps = JSON.readTree(WebFixture.getAt(own.base(), "/api/v1/apps").body()).get("apps");
            List<CSVRecord> records = parse(WebFixture.getAt(own.base(), "/api/v1/apps?format=csv").body());
            assertEquals(names.size(), records.size());
            List<String> csvNames = new ArrayList<>();
            for (int i = 0; i < apps.size(); i++) {
                String raw = apps.get(i).get("name").asText();
                assertTrue(names.contains(raw), "JSON keeps the name as stored: " + raw);
                String cell = records.get(i).get("name");
                csvNames.add(cell);
                char first = raw.charAt(0);
                if ("=+-@\t".indexOf(first) >= 0) {
                    assertEquals("'" + raw, cell);
                } else {
                    assertEquals(raw, cell, "quotes, commas and newlines survive RFC 4180 quoting");
                }
            }
            for (String cell : csvNames) {
                assertFalse("=+-@\t".indexOf(cell.charAt(0)) >= 0, "no cell starts a formula: " + cell);
            }
        }
    }

    static List<CSVRecord> parse(String csv) throws Exception {
        try (CSVParser p = CSVParser.parse(new StringReader(csv),
                CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get())) {
            return p.getRecords();
        }
    }
}
