package io.sparkscope.core.analysis.whatif;

import io.sparkscope.core.analysis.EventLogAnalysis;
import io.sparkscope.core.eventlog.EventLogReader;
import io.sparkscope.core.eventlog.EventLogSource;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.recorder.RecorderOptions;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;

/**
 * Not a test: the what-if model's error at the actual executor count on real event logs, for
 * docs/benchmarks/what-if-error.md. Prints one Markdown row per application and task order. Run after
 * {@code mvn -q -o -pl heuristics-core/diagnosis -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/hc.cp}:
 * {@code java -cp heuristics-core/model/target/classes:heuristics-core/recording/target/classes:heuristics-core/diagnosis/target/classes:heuristics-core/model/target/test-classes:heuristics-core/recording/target/test-classes:heuristics-core/diagnosis/target/test-classes:$(cat /tmp/hc.cp)
 * io.sparkscope.core.analysis.whatif.WhatIfModelErrorBench <log-or-dir>…}
 */
public final class WhatIfModelErrorBench {
    public static void main(String[] args) throws Exception {
        System.out.println("| log | mode | executors × cores | actual s | driver-only s | estimate s (LPT) | error (LPT) "
                + "| error / task-busy time (LPT) | estimate s (launch order) | error (launch order) "
                + "| critical path s | ideal s | rebuilt tasks | caveats |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (String arg : args) {
            Path p = Paths.get(arg);
            for (EventLogSource source : EventLogReader.discover(p)) {
                EventLogAnalysis.Result r = EventLogAnalysis.analyze(source, RecorderOptions.DEFAULTS, problem -> { });
                if (!r.hasApplication()) {
                    continue;
                }
                AppSnapshot app = r.snapshot();
                WhatIfResult lpt = ExecutorWhatIf.analyze(app);
                WhatIfResult launch = ExecutorWhatIf.analyze(app, WhatIfOptions.DEFAULTS.withOrder(TaskOrder.LAUNCH_ORDER));
                System.out.printf(Locale.ROOT, "| %s | %s | %d × %d | %.1f | %.1f | %.1f | %+.1f %% | %s | %.1f | %+.1f %% | %.1f | %.1f | %d | %s |%n",
                        source.path().getFileName(), lpt.local() ? "local" : "cluster", lpt.actualExecutors(),
                        lpt.coresPerExecutor(), lpt.actualDurationMs() / 1e3, lpt.driverTimeMs() / 1e3,
                        lpt.estimatedActualMs() / 1e3, lpt.relativeError() * 100, busyError(lpt),
                        launch.estimatedActualMs() / 1e3,
                        launch.relativeError() * 100, lpt.criticalPathMs() / 1e3, lpt.idealMs() / 1e3,
                        lpt.reconstructedTasks(), lpt.caveats());
            }
        }
    }

    /**
     * The error against the part of the run the model actually simulates (wall time with tasks running): the
     * driver-only part is reproduced by construction, so a driver-heavy run looks better than the model is.
     */
    private static String busyError(WhatIfResult r) {
        long busy = r.actualDurationMs() - r.driverTimeMs();
        return busy <= 0 ? "n/a" : String.format(Locale.ROOT, "%+.1f %%", 100.0 * r.errorMs() / busy);
    }
}
