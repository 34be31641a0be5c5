package io.sparkscope.core.report;

import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Threshold;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The catalogue of heuristics as {@code sparkscope heuristics} prints it: each heuristic in the order it runs, what it
 * reports and why ({@link Heuristic#description()}), and every threshold with its value in force, its default when
 * overridden, and what it does. Built from the heuristics on the classpath, so it always matches the code and lists a
 * user's own heuristics too; that is why docs/heuristics.md points here instead of repeating it.
 */
public final class CatalogueText {
    private static final int WIDTH = 100;

    private CatalogueText() {
    }

    /** Plain text for a terminal. */
    public static String text(List<Heuristic> heuristics, HeuristicConfig cfg) {
        StringBuilder b = new StringBuilder();
        for (Heuristic h : heuristics) {
            b.append(h.id()).append('\n');
            String description = paragraph(safeDescription(h));
            if (!description.isEmpty()) {
                for (String line : wrap(description, WIDTH - 4)) {
                    b.append("    ").append(line).append('\n');
                }
            }
            List<Row> rows = rows(h, cfg);
            int keyWidth = rows.stream().mapToInt(r -> r.key.length()).max().orElse(0);
            int valueWidth = rows.stream().mapToInt(r -> r.value.length()).max().orElse(0);
            for (Row r : rows) {
                String line = "    " + pad(r.key, keyWidth) + "  " + pad(r.value, valueWidth)
                        + (r.description.isEmpty() ? "" : "  " + r.description);
                b.append(line.stripTrailing()).append('\n');
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** Markdown: a section per heuristic with a table of its thresholds. */
    public static String markdown(List<Heuristic> heuristics, HeuristicConfig cfg) {
        StringBuilder b = new StringBuilder();
        for (Heuristic h : heuristics) {
            b.append("### ").append(h.id()).append("\n\n");
            String description = paragraph(safeDescription(h));
            if (!description.isEmpty()) {
                b.append(description).append("\n\n");
            }
            b.append("| key | value | what it does |\n|---|---|---|\n");
            for (Row r : rows(h, cfg)) {
                b.append("| `").append(r.key).append("` | ").append(r.value.replace("|", "\\|")).append(" | ")
                        .append(r.description.replace("|", "\\|")).append(" |\n");
            }
            b.append('\n');
        }
        return b.toString();
    }

    private record Row(String key, String value, String description) {
    }

    // The switch first, then the heuristic's keys in its declared order; a value overridden shows its default too.
    private static List<Row> rows(Heuristic h, HeuristicConfig cfg) {
        Map<String, String> described = new HashMap<>();
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put(h.id() + ".enabled", "true");
        described.put(h.id() + ".enabled", "false switches the heuristic off");
        try {
            for (Threshold t : h.thresholds()) {
                described.put(t.key(h.id()), t.description());
            }
            Map<String, String> declared = h.defaultThresholds();
            if (declared != null) {
                keys.putAll(declared);
            }
        } catch (RuntimeException e) {
            // a custom heuristic whose declarations throw: list what the config knows of it
        }
        for (String key : cfg.defaultValues().keySet()) {
            if (key.startsWith(h.id() + ".")) {
                keys.putIfAbsent(key, cfg.defaultValues().get(key));
            }
        }
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, String> e : keys.entrySet()) {
            String def = cfg.defaultValues().getOrDefault(e.getKey(), e.getValue());
            String now = cfg.values().getOrDefault(e.getKey(), def);
            String value = now.equals(def) ? now : now + " (default " + def + ")";
            rows.add(new Row(e.getKey(), value, described.getOrDefault(e.getKey(), "")));
        }
        return rows;
    }

    private static String safeDescription(Heuristic h) {
        try {
            String d = h.description();
            return d == null ? "" : d;
        } catch (RuntimeException e) {
            return "";
        }
    }

    /** The description's lines joined into one sentence-case paragraph (they are wrapped in the source). */
    private static String paragraph(String text) {
        String p = String.join(" ", text.strip().split("\\s*\\n\\s*"));
        return p.isEmpty() ? p : Character.toUpperCase(p.charAt(0)) + p.substring(1);
    }

    private static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > 0) {
            lines.add(line.toString());
        }
        return lines;
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
