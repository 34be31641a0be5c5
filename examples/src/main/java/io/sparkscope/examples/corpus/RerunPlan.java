package io.sparkscope.examples.corpus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.sparkscope.core.heuristics.SettingAdvice;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What rerunning an app with its first "Fix this first" item fixed means, read from the baseline's
 * {@code analyze --json}: the finding, the saving it promises, and the fix to apply, either the Spark settings of its
 * structured advice or, when the advice is code-level (no settings), the app's fixed variant. The fixed variant fixes
 * the cause the app's label names, so it stands for a finding's code-level advice only when the finding is that cause.
 *
 * @param findingId   the first item's finding id ("" when there is none)
 * @param labelled    the first item is a cause the app's label allows first
 * @param heuristic   its heuristic ("" when there is none)
 * @param severity    its severity ("" when there is none)
 * @param promisedMs  the saving it promises: the finding's {@code impact.wallMs}
 * @param settings    Spark settings to set on top of the app's own (empty when the fixed variant is run)
 * @param fixed       run the app's fixed variant
 * @param applied     the fix as a reader sees it: the settings, or "fixed code: …"
 * @param apartReason why the app cannot be rerun with a fix (null when it can)
 */
public record RerunPlan(String findingId, boolean labelled, String heuristic, String severity, long promisedMs,
                        Map<String, String> settings, boolean fixed, String applied, String apartReason) {

    /** How to choose between a finding's settings and the app's fixed variant. */
    public enum Mode {
        /** The finding's settings when it advises any, else the fixed variant (the advice is code-level). */
        AUTO,
        /** The finding's settings only. */
        SETTINGS,
        /** The app's fixed variant whenever it has one and the finding is the labelled cause, else its settings. */
        CODE;

        public static Mode parse(String s) {
            try {
                return valueOf(s.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--fix must be auto, settings or code, got '" + s + "'");
            }
        }
    }

    public RerunPlan {
        settings = Map.copyOf(settings);
    }

    public boolean apart() {
        return apartReason != null;
    }

    /** The first item as "Heuristic (SEVERITY)", "-" when there is none. */
    public String first() {
        return heuristic.isEmpty() ? "-" : heuristic + " (" + severity + ")";
    }

    /**
     * Settings that take effect only when a JVM starts, as Spark itself reads them in local mode, where the driver is
     * also the executor: heap size and JVM options. A run in this JVM would ignore them.
     */
    public List<String> jvmStartKeys() {
        return settings.keySet().stream().filter(RerunPlan::isJvmStartKey).sorted().toList();
    }

    static boolean isJvmStartKey(String key) {
        return key.equals("spark.driver.memory") || key.equals("spark.executor.memory")
                || key.equals("spark.driver.extraJavaOptions") || key.equals("spark.executor.extraJavaOptions");
    }

    /**
     * The JVM options of a run with these settings, in local mode: the app's own options, the heap set by the driver
     * (else the executor) memory, and the driver's and executor's extra Java options appended.
     */
    public List<String> jvmOptions(List<String> appOptions) {
        List<String> out = new ArrayList<>(appOptions);
        String memory = settings.getOrDefault("spark.driver.memory", settings.get("spark.executor.memory"));
        if (memory != null) {
            OptionalDouble bytes = SettingAdvice.numeric("spark.driver.memory", memory);
            if (bytes.isEmpty() || bytes.getAsDouble() < 1024 * 1024) {
                throw new IllegalArgumentException("memory setting '" + memory + "' is not a size");
            }
            out.removeIf(o -> o.startsWith("-Xmx"));
            out.add("-Xmx" + (long) (bytes.getAsDouble() / (1024 * 1024)) + "m");
        }
        for (String key : List.of("spark.driver.extraJavaOptions", "spark.executor.extraJavaOptions")) {
            String opts = settings.get(key);
            if (opts != null && !opts.isBlank()) {
                out.addAll(List.of(opts.trim().split("\\s+")));
            }
        }
        return out;
    }

    /**
     * The plan for one app from its baseline analysis ({@code analyze --json} of one application).
     *
     * @param allowedFirst the heuristics the app's label allows first ({@link Label#firstAllowed()})
     */
    public static RerunPlan of(JsonNode analysis, CorpusApp app, List<String> allowedFirst, Mode mode) {
        JsonNode item = analysis.path("fixFirst").path(0);
        if (item.isMissingNode()) {
            return apart("", false, "", "", 0, "no \"Fix this first\" item");
        }
        String id = item.path("findingId").asText();
        String heuristic = item.path("heuristic").asText();
        String severity = item.path("severity").asText();
        long promised = item.path("impact").path("wallMs").asLong();
        Map<String, String> settings = new LinkedHashMap<>();
        for (JsonNode a : finding(analysis, id).path("advice")) {
            settings.put(a.path("key").asText(), a.path("recommendedValue").asText());
        }
        boolean labelled = allowedFirst.contains(heuristic);
        boolean code = app.hasFix() && labelled && (mode == Mode.CODE || mode == Mode.AUTO && settings.isEmpty());
        if (code) {
            return new RerunPlan(id, true, heuristic, severity, promised, Map.of(), true,
                    "fixed code: " + app.fix().what(), null);
        }
        if (settings.isEmpty()) {
            return apart(id, labelled, heuristic, severity, promised, !app.hasFix()
                    ? "no settings advised and no fixed variant"
                    : !labelled ? "no settings advised, and the fixed variant fixes the labelled cause, not this one"
                    : "no settings advised");
        }
        List<String> applied = new ArrayList<>();
        settings.forEach((k, v) -> applied.add(k + "=" + v));
        return new RerunPlan(id, labelled, heuristic, severity, promised, settings, false, String.join(", ", applied),
                null);
    }

    /**
     * The same finding in another run's analysis: the finding of that id, else, of the findings whose id differs only
     * in its numbers, the one ranked first in "Fix this first", else the one promising the most wall time. Finding ids
     * name stage and job ids ("SmallFiles:write37.0"), and those differ between runs of one app in one session
     * (write37.0 in the first run, write41.0 in the next), so an id match alone would miss the finding and record its
     * promise as 0. A missing node when no finding matches.
     */
    static JsonNode sameFinding(JsonNode analysis, String id) {
        JsonNode exact = finding(analysis, id);
        if (!exact.isMissingNode()) {
            return exact;
        }
        String shape = withoutNumbers(id);
        for (JsonNode item : analysis.path("fixFirst")) {
            String other = item.path("findingId").asText();
            if (withoutNumbers(other).equals(shape)) {
                return finding(analysis, other);
            }
        }
        JsonNode best = MissingNode.getInstance();
        for (JsonNode f : analysis.path("findings")) {
            if (withoutNumbers(f.path("id").asText()).equals(shape)
                    && (best.isMissingNode() || f.path("impact").path("wallMs").asLong()
                    > best.path("impact").path("wallMs").asLong())) {
                best = f;
            }
        }
        return best;
    }

    private static String withoutNumbers(String id) {
        return id.replaceAll("[0-9]+", "#");
    }

    /** The finding of that id in an analysis (a missing node when absent). */
    static JsonNode finding(JsonNode analysis, String id) {
        for (JsonNode f : analysis.path("findings")) {
            if (f.path("id").asText().equals(id)) {
                return f;
            }
        }
        return MissingNode.getInstance();
    }

    private static RerunPlan apart(String id, boolean labelled, String heuristic, String severity, long promised,
                                   String reason) {
        return new RerunPlan(id, labelled, heuristic, severity, promised, Map.of(), false, "-", reason);
    }
}
