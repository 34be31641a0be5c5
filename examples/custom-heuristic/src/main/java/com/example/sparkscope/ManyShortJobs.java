package com.example.sparkscope;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;

import java.util.List;
import java.util.Map;

/**
 * An example of a team's own rule: many very short jobs usually mean an action inside a loop (count() or collect()
 * per item), where each job pays Spark's scheduling overhead. Registered in
 * {@code META-INF/services/io.sparkscope.core.heuristics.Heuristic}; put the jar on the classpath of the CLI, the
 * server or the driver and Sparkscope runs it with its own.
 */
public final class ManyShortJobs implements Heuristic {
    public static final String ID = "ManyShortJobs";

    @Override
    public String id() {
        return ID;
    }

    /** Our own thresholds: they can be overridden like built-in ones (ManyShortJobs.minJobs=… in a config file). */
    @Override
    public Map<String, String> defaultThresholds() {
        return Map.of(ID + ".minJobs", "100", ID + ".shortJobMs", "200");
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        long minJobs = cfg.count(ID + ".minJobs");
        double shortMs = cfg.threshold(ID + ".shortJobMs");
        long shortJobs = shortJobs(app.jobs(), shortMs);
        if (shortJobs < minJobs) {
            return List.of();
        }
        return List.of(Finding.builder(ID, Severity.LOW)
                .title(shortJobs + " very short jobs")
                .message(shortJobs + " of " + app.jobs().size() + " jobs took less than " + (long) shortMs
                        + " ms each; each job pays the driver's scheduling overhead.")
                .recommendation("Look for an action (count, collect, show) inside a loop and batch the work into "
                        + "one job, e.g. a join or a groupBy instead of one query per item.")
                .detail("shortJobs", shortJobs)
                .detail("jobs", app.jobs().size())
                .build());
    }

    private static long shortJobs(List<JobSummary> jobs, double shortMs) {
        return jobs.stream().filter(j -> j.completionTime() > 0 && j.durationMs() < shortMs).count();
    }
}
