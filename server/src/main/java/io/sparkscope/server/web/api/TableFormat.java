package io.sparkscope.server.web.api;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How a list answer is written: the API's JSON, or one row per element as CSV (for spreadsheets) or JSON lines (for
 * notebooks). A row is the element exactly as the JSON answer has it: JSON lines keep it whole; CSV flattens nested
 * objects into dotted columns ({@code efficiency.coreHoursWasted}) and writes lists as JSON text in one cell.
 */
public enum TableFormat {
    JSON("application/json", "json"),
    CSV("text/csv; charset=utf-8", "csv"),
    JSONL("application/x-ndjson; charset=utf-8", "jsonl");

    /** Characters that make a spreadsheet read a cell as a formula (OWASP's list for CSV injection). */
    private static final String FORMULA_START = "=+-@\t\r";

    private final String contentType;
    private final String extension;

    TableFormat(String contentType, String extension) {
        this.contentType = contentType;
        this.extension = extension;
    }

    public String contentType() {
        return contentType;
    }

    public String extension() {
        return extension;
    }

    /**
     * Writes the rows as CSV or JSON lines (for JSON, a JSON array). CSV's columns are every flattened field of
     * any row, in the order they first appear, so a row whose nested object is null still lines up.
     */
    public void write(List<?> rows, Writer out) throws IOException {
        switch (this) {
            case JSON -> out.write(ApiJson.write(rows));
            case JSONL -> {
                for (Object row : rows) {
                    out.write(ApiJson.write(row));
                    out.write('\n');
                }
            }
            case CSV -> writeCsv(rows, out);
        }
        out.flush();
    }

    private static void writeCsv(List<?> rows, Writer out) throws IOException {
        List<Map<String, String>> flat = new ArrayList<>(rows.size());
        Set<String> columns = new LinkedHashSet<>();
        for (Object row : rows) {
            Map<String, String> cells = new LinkedHashMap<>();
            flatten("", ApiJson.tree(row), cells);
            columns.addAll(cells.keySet());
            flat.add(cells);
        }
        // An object null in one row and filled in another: its dotted columns carry it, the bare name goes.
        columns.removeIf(c -> columns.stream().anyMatch(o -> o.startsWith(c + ".")));
        CSVFormat format = CSVFormat.RFC4180.builder().setHeader(columns.toArray(String[]::new)).get();
        CSVPrinter printer = new CSVPrinter(out, format);
        List<String> record = new ArrayList<>(columns.size());
        for (Map<String, String> cells : flat) {
            record.clear();
            for (String c : columns) {
                record.add(cells.getOrDefault(c, ""));
            }
            printer.printRecord(record);
        }
        printer.flush();
    }

    private static void flatten(String prefix, JsonNode node, Map<String, String> cells) {
        if (node.isObject() && (prefix.isEmpty() || !node.isEmpty())) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                flatten(prefix.isEmpty() ? f.getKey() : prefix + "." + f.getKey(), f.getValue(), cells);
            }
        } else if (node.isNull() || node.isMissingNode()) {
            cells.put(prefix, "");
        } else if (node.isTextual()) {
            cells.put(prefix, safeText(node.textValue()));
        } else if (node.isValueNode()) {
            cells.put(prefix, node.asText());
        } else {
            // lists (and empty objects): their JSON in one cell, guarded like any text
            cells.put(prefix, safeText(node.toString()));
        }
    }

    /**
     * A text cell a spreadsheet will show as text: one starting with {@code = + - @}, a tab or a carriage return is
     * prefixed with a quote, so an application named {@code =HYPERLINK(...)} is never run as a formula. Only text
     * is guarded; numbers (a negative change) are written as they are.
     */
    static String safeText(String s) {
        return !s.isEmpty() && FORMULA_START.indexOf(s.charAt(0)) >= 0 ? "'" + s : s;
    }
}
