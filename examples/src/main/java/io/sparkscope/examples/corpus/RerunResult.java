package io.sparkscope.examples.corpus;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One app rerun with its first "Fix this first" item fixed: the durations of the baseline and fixed runs (each read
 * from the run's event log) and the saving each baseline run's analysis promised for that finding.
 *
 * @param app           the corpus app
 * @param first         the first item of the baseline analysis, "Heuristic (SEVERITY)", "-" when none
 * @param labelledCause the first item is one the app's label allows first (the diagnosis was right)
 * @param applied       the fix: settings as {@code key=value, …}, or "fixed code: …"; "-" when apart
 * @param apart         why the app was not rerun with a fix (no item, no advice and no fixed variant, a failed run);
 *                      null when it was
 * @param ownJvm        each run had a JVM of its own (the advice sets the heap or JVM options)
 * @param baselineMs    durations of the baseline runs
 * @param fixedMs       durations of the fixed runs
 * @param promisedMs    the saving the finding promised, per baseline run (its {@code impact.wallMs}; 0 when that run's
 *                      analysis no longer had the finding)
 * @param firstAfterFix the first item of the last fixed run's analysis, "-" when none
 */
public record RerunResult(String app, String first, boolean labelledCause, String applied, String apart,
                          boolean ownJvm, List<Long> baselineMs, List<Long> fixedMs, List<Long> promisedMs,
                          String firstAfterFix) {

    public RerunResult {
        baselineMs = baselineMs == null ? List.of() : List.copyOf(baselineMs);
        fixedMs = fixedMs == null ? List.of() : List.copyOf(fixedMs);
        promisedMs = promisedMs == null ? List.of() : List.copyOf(promisedMs);
    }

    public boolean measured() {
        return apart == null && !baselineMs.isEmpty() && !fixedMs.isEmpty();
    }

    /** The median saving promised. */
    public long promised() {
        return (long) median(promisedMs);
    }

    /** Median baseline duration − median fixed duration (negative when the fix made it slower). */
    public long saved() {
        return (long) (median(baselineMs) - median(fixedMs));
    }

    public boolean faster() {
        return saved() > 0;
    }

    /**
     * The error of the promise, (promised − measured) / measured: +0.5 promised half as much again as the fix saved,
     * −0.5 half of it. Infinite when the fix saved nothing (any promise of a saving was then wrong).
     */
    public double error() {
        long saved = saved();
        return saved <= 0 ? Double.POSITIVE_INFINITY : (promised() - saved) / (double) saved;
    }

    /** The median of some values (the mean of the middle two for an even count; 0 for none). */
    public static double median(List<? extends Number> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = new ArrayList<>();
        values.forEach(v -> sorted.add(v.doubleValue()));
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
