package io.sparkscope.core.analysis.prediction;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.RecorderOptions;

import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Validates key-stage prediction (docs/benchmarks/prediction-error.md): reads the event logs
 * of one application name (default {@code recurring-etl}, the examples' recurring job), trains on every run but the
 * one with the largest input, predicts that one and prints the error. Also prints, for each training size, the
 * per-run stage times so the reason for an error is visible. Run after
 * {@code mvn -q -o -pl heuristics-core/diagnosis -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/hc.cp}:
 * {@code java -cp heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:heuristics-core/model/target/test-classes:heuristics-core/recording/target/test-classes:heuristics-core/diagnosis/target/test-classes:$(cat /tmp/hc.cp)
 * io.sparkscope.core.analysis.prediction.PredictionBench [--name NAME] <log-or-dir>…}
 */
public final class PredictionBench {
    private PredictionBench() {
    }

    public static void main(String[] args) throws Exception {
        String name = "recurring-etl";
        List<AppSnapshot> runs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--name")) {
                name = args[++i];
                continue;
            }
            for (EventLogSource source : EventLogReader.discover(Paths.get(args[i]))) {
                EventLogAnalysis.Result r = EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS, problem -> { });
                if (r.hasApplication() && name.equals(r.snapshot().appName())) {
                    runs.add(r.snapshot());
                }
            }
        }
        if (runs.size() < 2) {
            System.err.println("need at least 2 runs of '" + name + "', found " + runs.size());
            System.exit(2);
        }
        runs.sort(Comparator.comparingLong(KeyStagePredictor::inputBytes));
        System.out.println("| run | input MB | duration s | Σ stage s | overhead s | stages |");
        System.out.println("|---|---|---|---|---|---|");
        for (AppSnapshot r : runs) {
            Map<StageKey, Long> t = KeyStagePredictor.stageTimes(r);
            long sum = t.values().stream().mapToLong(Long::longValue).sum();
            StringBuilder sb = new StringBuilder();
            t.forEach((k, v) -> sb.append(sb.isEmpty() ? "" : "; ").append(k.jobPosition()).append('/')
                    .append(k.name()).append(' ').append(String.format(Locale.ROOT, "%.2f", v / 1e3)));
            System.out.printf(Locale.ROOT, "| %s | %.1f | %.2f | %.2f | %.2f | %s |%n", r.appId(),
                    KeyStagePredictor.inputBytes(r) / 1e6, r.durationMs() / 1e3, sum / 1e3,
                    (r.durationMs() - sum) / 1e3, sb);
        }
        System.out.println();
        report("all but the largest", runs.subList(0, runs.size() - 1), runs.get(runs.size() - 1));
        if (runs.size() >= 4) {
            // The same question one size down, to show how the error moves with the input scale.
            report("all but the two largest", runs.subList(0, runs.size() - 2), runs.get(runs.size() - 2));
        }
    }

    private static void report(String label, List<AppSnapshot> training, AppSnapshot target) {
        long input = KeyStagePredictor.inputBytes(target);
        Prediction p = KeyStagePredictor.predict(training, input);
        double actual = target.durationMs();
        double error = (p.predictedMs() - actual) / actual * 100;
        Map<StageKey, Long> actualStages = KeyStagePredictor.stageTimes(target);
        System.out.printf(Locale.ROOT, "train on %s (%d runs, %.1f–%.1f MB), predict %s at %.1f MB:%n", label,
                training.size(), p.minInputBytes() / 1e6, p.maxInputBytes() / 1e6, target.appId(), input / 1e6);
        for (KeyStage k : p.keyStages()) {
            long a = actualStages.getOrDefault(k.key(), 0L);
            System.out.printf(Locale.ROOT, "  key stage %d/%s: fit %.1f ms + %.3f ms/MB, R² %.3f → predicted %.2f s, "
                            + "actual %.2f s (%+.1f %%)%n", k.key().jobPosition(), k.key().name(), k.fit().intercept(),
                    k.fit().slope() * 1e6, k.fit().r2(), k.predictedMs() / 1e3, a / 1e3,
                    a == 0 ? 0 : (k.predictedMs() - a) / a * 100);
        }
        double others = p.otherStages().stream().mapToDouble(StageMean::meanMs).sum();
        System.out.printf(Locale.ROOT, "  other stages (means) %.2f s, overhead %.2f s, T_mean %.2f s, D_mean %.2f s, "
                + "warnings %s%n", others / 1e3, p.overheadMs() / 1e3, p.meanStageMs() / 1e3, p.meanChangeMs() / 1e3,
                p.warnings());
        System.out.printf(Locale.ROOT, "  predicted %.2f s, actual %.2f s, error %+.1f %%%n%n", p.predictedMs() / 1e3,
                actual / 1e3, error);
    }
}
