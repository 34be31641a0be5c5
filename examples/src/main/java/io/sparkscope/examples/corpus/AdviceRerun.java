package io.sparkscope.examples.corpus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.sparkscope.core.analysis.Diagnoser;
import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.recorder.RecorderOptions;
import io.sparkscope.core.report.SnapshotJson;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Advice proven by rerunning it: for each corpus app whose label names a cause, runs the app, reads its "Fix this
 * first" list as {@code analyze --json} has it, applies the first item's fix (its advised settings, or the app's
 * fixed variant when the advice is code-level) and runs baseline and fixed alternately, then compares the saving the
 * finding promised with the saving measured.
 *
 * <pre>
 * AdviceRerun apps LABELS       prints "app TAB JVM options" for every corpus app whose label names a cause
 * AdviceRerun run [--labels DIR] [--work DIR] [--runs N] [--fix auto|settings|code] app…
 *                               reruns the apps in this JVM, writing WORK/results/&lt;app&gt;.json
 * AdviceRerun report [--work DIR] app…
 *                               prints the Markdown table of those results and writes it to WORK/advice-rerun.md
 * </pre>
 * Runs go in this order: one baseline whose analysis decides the fix (it also warms the JVM up and is not counted),
 * then pairs fixed+baseline and baseline+fixed in turn, so that a machine getting slower or faster through the session
 * weighs on both sides alike. When the advice sets the heap or JVM options, which only a new JVM reads, every counted
 * run of that app gets a JVM of its own.
 */
public final class AdviceRerun {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** How a run is made: its JVM options and Spark settings beyond the app's, and whether it is the fixed variant. */
    @FunctionalInterface
    interface Runner {
        Path run(CorpusApp app, Path out, Path data, RerunPlan plan, boolean fixed) throws Exception;
    }

    /** The settings of a rerun session. */
    public record Options(Path labels, Path work, int runs, RerunPlan.Mode mode) {
        public Options {
            if (runs < 1) {
                throw new IllegalArgumentException("--runs must be at least 1, got " + runs);
            }
        }
    }

    private AdviceRerun() {
    }

    /**
     * The corpus apps named, each with its label; an app without a label, or a label without an app, is an error
     * naming it.
     */
    public static Map<CorpusApp, Label> select(List<String> names, Path labels) {
        Map<CorpusApp, Label> out = new LinkedHashMap<>();
        for (String n : names) {
            CorpusApp app = CorpusApps.find(n).orElseThrow(() -> new IllegalArgumentException(
                    "unknown corpus app '" + n + "' (CorpusRun list names them)"));
            Path file = labels.resolve(n + ".json");
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("corpus app '" + n + "' has no label (" + file + " missing)");
            }
            out.put(app, Label.read(file, Label.knownHeuristics()));
        }
        return out;
    }

    /** The apps whose label names a cause, in label order. */
    public static List<CorpusApp> appsWithCauses(Path labels) {
        List<CorpusApp> out = new ArrayList<>();
        for (Label l : Label.readAll(labels, Label.knownHeuristics())) {
            if (!l.clean()) {
                CorpusApps.find(l.app()).ifPresent(out::add);
            }
        }
        return out;
    }

    /** Reruns one app as the class comment says; writes its analyses under {@code work/runs/<app>/}. */
    public static RerunResult rerun(CorpusApp app, Label label, Options o) {
        if (label.clean()) {
            return new RerunResult(app.name(), "-", false, "-", "clean app: no cause to fix", false, null, null, null,
                    "-");
        }
        return rerun(app, o, baseline -> RerunPlan.of(baseline, app, label.firstAllowed(), o.mode()));
    }

    /** Reruns one app with the fix {@code planner} reads from its baseline analysis. */
    static RerunResult rerun(CorpusApp app, Options o, Function<JsonNode, RerunPlan> planner) {
        Path dir = o.work().resolve("runs").resolve(app.name());
        Path data = o.work().resolve("data");
        Runner inProcess = AdviceRerun::runHere;
        RerunPlan plan;
        try {
            JsonNode baseline = runAndAnalyze(inProcess, app, dir, data, "analysis", null, false);
            plan = planner.apply(baseline);
        } catch (Exception e) {
            return new RerunResult(app.name(), "-", false, "-", "baseline run failed: " + oneLine(e), false,
                    null, null, null, "-");
        }
        boolean labelled = plan.labelled();
        if (plan.apart()) {
            return new RerunResult(app.name(), plan.first(), labelled, "-", plan.apartReason(), false, null, null, null,
                    "-");
        }
        boolean ownJvm = !plan.jvmStartKeys().isEmpty();
        Runner runner = ownJvm ? AdviceRerun::runInOwnJvm : inProcess;
        List<Long> baseMs = new ArrayList<>();
        List<Long> fixedMs = new ArrayList<>();
        List<Long> promised = new ArrayList<>();
        String after = "-";
        try {
            for (int i = 1; i <= o.runs(); i++) {
                for (boolean fixed : i % 2 == 1 ? new boolean[]{true, false} : new boolean[]{false, true}) {
                    JsonNode a = runAndAnalyze(runner, app, dir, data, (fixed ? "fixed-" : "baseline-") + i, plan,
                            fixed);
                    if (fixed) {
                        fixedMs.add(a.path("durationMs").asLong());
                        JsonNode first = a.path("fixFirst").path(0);
                        after = first.isMissingNode() ? "-"
                                : first.path("heuristic").asText() + " (" + first.path("severity").asText() + ")";
                    } else {
                        baseMs.add(a.path("durationMs").asLong());
                        promised.add(RerunPlan.sameFinding(a, plan.findingId()).path("impact").path("wallMs").asLong());
                    }
                }
            }
        } catch (Exception e) {
            return new RerunResult(app.name(), plan.first(), labelled, plan.applied(), "rerun failed: " + oneLine(e),
                    ownJvm, baseMs, fixedMs, promised, after);
        }
        return new RerunResult(app.name(), plan.first(), labelled, plan.applied(), null, ownJvm, baseMs, fixedMs,
                promised, after);
    }

    /**
     * A small app run once before the first baseline of a session and not looked at: a fresh JVM loads and compiles
     * Spark's code during its first application, which would stretch that run's driver time and put a finding about
     * it first.
     */
    static void warmUp(Path work) throws Exception {
        CorpusRun.run(CorpusApps.find("clean").orElseThrow(), work.resolve("warm-up"), work.resolve("data"));
    }

    /** One run (baseline when {@code plan} is null or {@code fixed} is false), analyzed; the analysis kept as JSON. */
    private static JsonNode runAndAnalyze(Runner runner, CorpusApp app, Path dir, Path data, String name,
                                          RerunPlan plan, boolean fixed) throws Exception {
        Path log = runner.run(app, dir.resolve(name), data, plan, fixed);
        JsonNode analysis = analyze(log);
        MAPPER.writeValue(dir.resolve(name + ".json").toFile(), analysis);
        return analysis;
    }

    /** A run in this JVM: the plan's settings on top of the app's (none for a baseline). */
    static Path runHere(CorpusApp app, Path out, Path data, RerunPlan plan, boolean fixed) throws Exception {
        boolean rerun = fixed && plan != null;
        return CorpusRun.run(app, out, data, rerun ? plan.settings() : Map.of(), rerun && plan.fixed());
    }

    /**
     * A run in a JVM of its own, started as this one was (same class path, same JVM options but the heap) plus the
     * app's JVM options, with the heap and JVM options the plan's settings ask for when it is the fixed run.
     */
    static Path runInOwnJvm(CorpusApp app, Path out, Path data, RerunPlan plan, boolean fixed) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!arg.startsWith("-Xmx") && !arg.startsWith("-Xms") && !arg.startsWith("-agentlib")) {
                cmd.add(arg);
            }
        }
        cmd.addAll(fixed ? plan.jvmOptions(app.jvmOptions()) : app.jvmOptions());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), CorpusRun.class.getName(),
                "--out", out.toString(), "--work", data.toString()));
        if (fixed) {
            plan.settings().forEach((k, v) -> cmd.addAll(List.of("--conf", k + "=" + v)));
            if (plan.fixed()) {
                cmd.add("--fixed");
            }
        }
        cmd.add(app.name());
        Files.createDirectories(out);
        Path output = out.resolve("run.out");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(app.name() + ": run in its own JVM timed out (" + output + ")");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(app.name() + ": run in its own JVM exited " + p.exitValue() + " (see "
                    + output + ")");
        }
        return CorpusRun.log(out.resolve(app.name()));
    }

    /** What {@code sparkscope analyze --json} prints for one log (without its efficiency section), as JSON. */
    public static JsonNode analyze(Path log) {
        Diagnoser diagnoser = Diagnoser.defaults();
        EventLogAnalysis.Result r = EventLogAnalysis.analyze(EventLogSource.ofFile(log),
                RecorderOptions.DEFAULTS.withDefaultWindows(), diagnoser::diagnose, null, p -> { });
        if (!r.hasApplication()) {
            throw new IllegalStateException(log + ": no Spark application in the event log");
        }
        List<Finding> findings = r.findings(diagnoser::diagnose);
        Map<String, Object> m = SnapshotJson.toMap(r.snapshot(), new double[]{0.5}, findings, false);
        return SnapshotJson.mapper().valueToTree(m);
    }

    static Path resultFile(Path work, String app) {
        return work.resolve("results").resolve(app + ".json");
    }

    private static String oneLine(Exception e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        return m.lines().findFirst().orElse("").trim();
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            fail("usage: AdviceRerun apps LABELS | run [--labels DIR] [--work DIR] [--runs N] "
                    + "[--fix auto|settings|code] app… | report [--work DIR] app…");
        }
        Path labels = Paths.get("examples", "corpus", "labels");
        Path work = Paths.get("bench", "target", "advice-rerun");
        int runs = 3;
        RerunPlan.Mode mode = RerunPlan.Mode.AUTO;
        List<String> names = new ArrayList<>();
        try {
            for (int i = 1; i < args.length; i++) {
                switch (args[i]) {
                    case "--labels" -> labels = Paths.get(value(args, ++i));
                    case "--work" -> work = Paths.get(value(args, ++i));
                    case "--runs" -> runs = count(value(args, ++i));
                    case "--fix" -> mode = RerunPlan.Mode.parse(value(args, ++i));
                    default -> names.add(args[i]);
                }
            }
            switch (args[0]) {
                case "apps" -> {
                    for (CorpusApp app : appsWithCauses(names.isEmpty() ? labels : Paths.get(names.get(0)))) {
                        System.out.println(app.name() + "\t" + String.join(" ", app.jvmOptions()));
                    }
                }
                case "run" -> {
                    Options o = new Options(labels, work, runs, mode);
                    Map<CorpusApp, Label> apps = select(names, labels);
                    Files.createDirectories(work.resolve("results"));
                    warmUp(work);
                    for (Map.Entry<CorpusApp, Label> e : apps.entrySet()) {
                        RerunResult r = rerun(e.getKey(), e.getValue(), o);
                        MAPPER.writeValue(resultFile(work, r.app()).toFile(), r);
                        System.out.println("advice-rerun: " + r.app() + ": " + (r.measured() ? r.applied() + ": saved "
                                + RerunReport.seconds(r.saved()) + " s, promised " + RerunReport.seconds(r.promised())
                                + " s" : "apart (" + r.apart() + ")"));
                    }
                }
                case "report" -> {
                    List<RerunResult> results = new ArrayList<>();
                    for (String n : names) {
                        Path f = resultFile(work, n);
                        if (!Files.isRegularFile(f)) {
                            throw new IllegalArgumentException("no rerun result for app '" + n + "' (" + f
                                    + " missing)");
                        }
                        results.add(MAPPER.readValue(f.toFile(), RerunResult.class));
                    }
                    String md = RerunReport.markdown(results);
                    Files.writeString(work.resolve("advice-rerun.md"), md);
                    System.out.print(md);
                }
                default -> throw new IllegalArgumentException("unknown command '" + args[0]
                        + "' (apps, run or report)");
            }
        } catch (IllegalArgumentException | Label.LabelException e) {
            fail(e.getMessage());
        }
    }

    private static int count(String s) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--runs needs a whole number, got '" + s + "'");
        }
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static void fail(String message) {
        System.err.println("advice-rerun: " + message);
        System.exit(2);
    }
}
