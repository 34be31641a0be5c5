package io.sparkscope.core.analysis.efficiency;

import io.sparkscope.core.heuristics.SparkSettings;

import java.util.ArrayList;
import java.util.List;

/**
 * How much of an application's memory Spark measured, and what would measure the rest.
 *
 * @param executors            executors that ran tasks (local mode: the driver)
 * @param measured             of those, the ones with measured memory peaks
 * @param processTreeMeasured  of those, the ones whose process tree (resident memory) was measured
 * @param driverMeasured       whether the driver's own peaks were measured
 * @param tooOld               the Spark version measures no executor memory at all (before 3.0)
 * @param missing              settings that would measure what is missing, not already set; empty when everything
 *                             was measured or the version cannot measure it
 */
public record PeakCoverage(int executors, int measured, int processTreeMeasured, boolean driverMeasured,
                           boolean tooOld, List<MeasuringSetting> missing) {

    public PeakCoverage {
        missing = List.copyOf(missing);
    }

    public boolean anyMeasured() {
        return measured > 0;
    }

    static PeakCoverage of(SparkSettings conf, List<ExecutorUse> runners, MemoryPeaks driverPeaks) {
        int measured = 0;
        int tree = 0;
        for (ExecutorUse e : runners) {
            if (e.peaks().measured()) {
                measured++;
            }
            if (e.peaks().processTreeMeasured()) {
                tree++;
            }
        }
        Boolean v3 = conf.versionAtLeast(3, 0);
        boolean tooOld = v3 != null && !v3;
        List<MeasuringSetting> missing = new ArrayList<>();
        if (!tooOld) {
            // A cluster's driver is measured only through the logged per-stage peaks (or a live heartbeat).
            boolean unmeasured = measured < runners.size() || (!conf.isLocal() && !driverPeaks.measured());
            if (unmeasured && !conf.bool(MeasuringSetting.LOG_STAGE_EXECUTOR_METRICS.key, false)) {
                missing.add(MeasuringSetting.LOG_STAGE_EXECUTOR_METRICS);
            }
            if (measured < runners.size() && !conf.isSet(MeasuringSetting.METRICS_POLLING_INTERVAL.key)) {
                missing.add(MeasuringSetting.METRICS_POLLING_INTERVAL);
            }
            if (tree < runners.size() && !conf.bool(MeasuringSetting.PROCESS_TREE_METRICS.key, false)) {
                missing.add(MeasuringSetting.PROCESS_TREE_METRICS);
            }
        }
        return new PeakCoverage(runners.size(), measured, tree, driverPeaks.measured(), tooOld, missing);
    }
}
