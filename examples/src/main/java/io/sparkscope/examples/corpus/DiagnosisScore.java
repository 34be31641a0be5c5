package io.sparkscope.examples.corpus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How well Sparkscope's diagnosis names the labelled root causes, from {@code analyze --json} output.
 * <ul>
 *   <li><b>top-1</b>: the first "Fix this first" item is in the label's {@code firstAllowed}; on a clean app, no
 *   "Fix this first" item is HIGH (a LOW tip may stand there).</li>
 *   <li><b>top-3 recall</b>: labelled causes found among the (at most three) "Fix this first" items, counting the
 *   findings an item names as fixed by the same remedy ({@code also}).</li>
 *   <li><b>false HIGH</b>: HIGH findings of a heuristic in {@code notHigh}; on a clean app, every HIGH finding.</li>
 * </ul>
 * Apps whose cause is a finding that does not exist yet ({@code pending}) are totalled apart.
 */
public final class DiagnosisScore {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * One app's score.
     *
     * @param first     the first "Fix this first" item as {@code Heuristic (SEVERITY)}, "-" when there is none
     * @param found     labelled causes found among the first three items
     * @param falseHigh heuristic names of the false HIGH findings, one per finding
     */
    public record AppScore(Label label, String first, boolean top1, int found, List<String> falseHigh) {
        public int causes() {
            return label.causes().size();
        }
    }

    /** Totals over a set of app scores. */
    public record Totals(int apps, int top1, int found, int causes, int falseHigh, int falseHighOnClean) {
        static Totals of(List<AppScore> scores) {
            int top1 = 0, found = 0, causes = 0, falseHigh = 0, onClean = 0;
            for (AppScore s : scores) {
                top1 += s.top1() ? 1 : 0;
                found += s.found();
                causes += s.causes();
                falseHigh += s.falseHigh().size();
                onClean += s.label().clean() ? s.falseHigh().size() : 0;
            }
            return new Totals(scores.size(), top1, found, causes, falseHigh, onClean);
        }

        public double top1Percent() {
            return apps == 0 ? 0 : 100.0 * top1 / apps;
        }

        public double recallPercent() {
            return causes == 0 ? 0 : 100.0 * found / causes;
        }
    }

    private DiagnosisScore() {
    }

    /** Scores one app's {@code analyze --json} object against its label. */
    public static AppScore score(Label label, JsonNode analysis) {
        List<String> fix = new ArrayList<>();
        List<String> fixSeverity = new ArrayList<>();
        // An item also names the findings its remedy fixes as well ("also": finding ids, heuristic before ':')
        List<List<String>> named = new ArrayList<>();
        for (JsonNode item : analysis.path("fixFirst")) {
            fix.add(item.path("heuristic").asText());
            fixSeverity.add(item.path("severity").asText());
            List<String> names = new ArrayList<>(List.of(item.path("heuristic").asText()));
            for (JsonNode also : item.path("also")) {
                names.add(also.asText().split(":", 2)[0]);
            }
            named.add(names);
        }
        String first = fix.isEmpty() ? "-" : fix.get(0) + " (" + fixSeverity.get(0) + ")";
        boolean top1 = label.clean() ? !fixSeverity.contains("HIGH")
                : !fix.isEmpty() && label.firstAllowed().contains(fix.get(0));
        List<String> top3 = new ArrayList<>();
        named.subList(0, Math.min(3, named.size())).forEach(top3::addAll);
        int found = 0;
        for (String cause : label.causes()) {
            if (Label.names(cause).stream().anyMatch(top3::contains)) {
                found++;
            }
        }
        List<String> falseHigh = new ArrayList<>();
        for (JsonNode f : analysis.path("findings")) {
            String h = f.path("heuristic").asText();
            if ("HIGH".equals(f.path("severity").asText()) && (label.clean() || label.notHigh().contains(h))) {
                falseHigh.add(h);
            }
        }
        return new AppScore(label, first, top1, found, falseHigh);
    }

    /** Reads {@code analyze --json} output for one log (an object, or an array holding one). */
    public static JsonNode readAnalysis(Path file) throws IOException {
        JsonNode n = MAPPER.readTree(file.toFile());
        if (n == null || (n.isArray() && n.size() != 1)) {
            throw new IOException(file + ": expected the analysis of one application");
        }
        return n.isArray() ? n.get(0) : n;
    }

    /** The score table: one line per app, then totals (non-pending apps, then pending ones apart). */
    public static void print(String title, List<AppScore> scores, PrintStream out) {
        out.println("== " + title);
        out.printf("%-28s %-30s %-5s %-6s %s%n", "app", "fix this first #1", "top1", "top3", "false HIGH");
        for (AppScore s : scores) {
            out.printf("%-28s %-30s %-5s %-6s %s%n", s.label().app() + (s.label().pending() ? " *" : ""),
                    s.first(), s.top1() ? "yes" : "NO",
                    s.label().clean() ? "-" : s.found() + "/" + s.causes(),
                    s.falseHigh().isEmpty() ? "0" : s.falseHigh().size() + " " + String.join(",", s.falseHigh()));
        }
        Totals now = Totals.of(scores.stream().filter(s -> !s.label().pending()).toList());
        Totals pending = Totals.of(scores.stream().filter(s -> s.label().pending()).toList());
        out.printf("TOTAL (%d apps): top-1 %d/%d = %.0f %%, top-3 recall %d/%d = %.0f %%, false HIGH %d "
                        + "(%d on clean apps)%n", now.apps(), now.top1(), now.apps(), now.top1Percent(), now.found(),
                now.causes(), now.recallPercent(), now.falseHigh(), now.falseHighOnClean());
        if (pending.apps() > 0) {
            out.printf("PENDING (* %d apps whose finding does not exist yet): top-1 %d/%d, top-3 recall %d/%d, "
                    + "false HIGH %d%n", pending.apps(), pending.top1(), pending.apps(), pending.found(),
                    pending.causes(), pending.falseHigh());
        }
    }

    /**
     * <pre>
     * DiagnosisScore check LABELS            checks every label (exit 2 naming the first bad one)
     * DiagnosisScore logs LABELS             prints "app TAB log" for labels of shared logs
     * DiagnosisScore score LABELS RESULTS [TITLE]   scores RESULTS/&lt;app&gt;.json (analyze --json output)
     * </pre>
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: DiagnosisScore check|logs|score LABELS [RESULTS [TITLE]]");
            System.exit(2);
        }
        List<Label> labels;
        try {
            labels = Label.readAll(Path.of(args[1]), Label.knownHeuristics());
        } catch (Label.LabelException e) {
            System.err.println("diagnosis: " + e.getMessage());
            System.exit(2);
            return;
        }
        switch (args[0]) {
            case "check" -> System.out.println(labels.size() + " labels OK in " + args[1]);
            case "logs" -> labels.forEach(l -> System.out.println(l.app() + "\t" + (l.log() == null ? "" : l.log())));
            case "score" -> {
                Path results = Path.of(args[2]);
                List<AppScore> scores = new ArrayList<>();
                for (Label l : labels) {
                    Path r = results.resolve(l.app() + ".json");
                    if (!Files.isRegularFile(r)) {
                        System.err.println("diagnosis: no analysis for " + l.app() + " (" + r + " missing)");
                        System.exit(2);
                    }
                    scores.add(score(l, readAnalysis(r)));
                }
                print(args.length > 3 ? args[3] : "diagnosis", scores, System.out);
            }
            default -> {
                System.err.println("diagnosis: unknown command '" + args[0] + "' (check, logs or score)");
                System.exit(2);
            }
        }
    }
}
