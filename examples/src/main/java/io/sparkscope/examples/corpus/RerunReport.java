package io.sparkscope.examples.corpus;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The advice-rerun results as Markdown: one row per app rerun with a fix (promised against measured saving), the
 * totals against their targets, then the apps left apart and why.
 */
public final class RerunReport {
    /** Share of rerun apps the fix must make faster. */
    public static final double TARGET_FASTER = 0.80;
    /** The median error of the promised saving must lie within ± this. */
    public static final double TARGET_ERROR = 0.50;

    private RerunReport() {
    }

    /** Totals over the apps rerun with a fix. */
    public record Totals(int rerun, int faster, double medianError) {
        public double fasterShare() {
            return rerun == 0 ? 0 : (double) faster / rerun;
        }
    }

    public static Totals totals(List<RerunResult> results) {
        List<RerunResult> rerun = results.stream().filter(RerunResult::measured).toList();
        // an app the fix did not speed up counts as an infinite error: the promise of a saving was wrong
        List<Double> errors = rerun.stream().map(RerunResult::error).toList();
        return new Totals(rerun.size(), (int) rerun.stream().filter(RerunResult::faster).count(),
                errors.isEmpty() ? Double.NaN : RerunResult.median(errors));
    }

    public static String markdown(List<RerunResult> results) {
        StringBuilder b = new StringBuilder();
        b.append("| app | fix this first #1 | fix applied | baseline s | fixed s | promised s | measured s | faster "
                + "| error | #1 after the fix |\n|---|---|---|---:|---:|---:|---:|---|---:|---|\n");
        for (RerunResult r : results) {
            if (!r.measured()) {
                continue;
            }
            b.append("| ").append(r.app()).append(" | ").append(cell(r.first()))
                    .append(r.labelledCause() ? "" : " (not a labelled cause)")
                    .append(" | ").append(cell(r.applied())).append(r.ownJvm() ? " (a JVM per run)" : "")
                    .append(" | ").append(seconds(RerunResult.median(r.baselineMs())))
                    .append(" | ").append(seconds(RerunResult.median(r.fixedMs())))
                    .append(" | ").append(seconds(r.promised()))
                    .append(" | ").append(seconds(r.saved()))
                    .append(" | ").append(r.faster() ? "yes" : "NO")
                    .append(" | ").append(percent(r.error()))
                    .append(" | ").append(cell(r.firstAfterFix())).append(" |\n");
        }
        Totals t = totals(results);
        b.append('\n').append(String.format(Locale.ROOT, "Made faster: %d/%d apps = %.0f %% (target ≥ %.0f %%)%n",
                t.faster(), t.rerun(), 100 * t.fasterShare(), 100 * TARGET_FASTER));
        b.append(String.format(Locale.ROOT, "Median error of the promised saving: %s (target within ±%.0f %%)%n",
                percent(t.medianError()), 100 * TARGET_ERROR));
        int runs = results.stream().filter(RerunResult::measured).mapToInt(r -> r.baselineMs().size()).max().orElse(0);
        if (runs > 0) {
            b.append(String.format(Locale.ROOT, "Medians of %d baseline and %d fixed runs per app, alternated.%n",
                    runs, runs));
        }
        List<RerunResult> apart = new ArrayList<>(results.stream().filter(r -> !r.measured()).toList());
        if (!apart.isEmpty()) {
            b.append("\nApps apart (not rerun with a fix):\n\n| app | fix this first #1 | why |\n|---|---|---|\n");
            for (RerunResult r : apart) {
                b.append("| ").append(r.app()).append(" | ").append(cell(r.first())).append(" | ")
                        .append(cell(r.apart() == null ? "no runs" : r.apart())).append(" |\n");
            }
        }
        return b.toString();
    }

    static String seconds(double ms) {
        return String.format(Locale.ROOT, "%.1f", ms / 1000);
    }

    static String percent(double error) {
        if (Double.isNaN(error)) {
            return "-";
        }
        return Double.isInfinite(error) ? "∞" : String.format(Locale.ROOT, "%+.0f %%", 100 * error);
    }

    /** A table cell: pipes and line breaks would break the row. */
    private static String cell(String s) {
        return s == null ? "" : s.replace("|", "\\|").replace('\n', ' ');
    }
}
