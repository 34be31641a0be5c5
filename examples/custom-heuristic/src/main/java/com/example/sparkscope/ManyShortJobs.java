package com.example.sparkscope;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.Heuristic;
import io.sparkscope.core.heuristics.HeuristicConfig;
import io.sparkscope.core.heuristics.Impact;
import io.sparkscope.core.heuristics.Levels;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.heuristics.Severity;
import io.sparkscope.core.heuristics.SparkSettings;
import io.sparkscope.core.heuristics.Threshold;
import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;

import java.util.List;

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

    /**
     * Our own thresholds: they can be overridden like built-in ones (ManyShortJobs.minJobs=… in a config file), and
     * {@code sparkscope heuristics} lists them with what they do.
     */
    @Override
    public List<Threshold> thresholds() {
        return List.of(new Threshold("minJobs", "100", "short jobs at or above which it is LOW"),
                new Threshold("manyJobs", "5000", "short jobs at or above which it is HIGH"),
                new Threshold("shortJobMs", "200", "a job shorter than this (ms) is short"));
    }

    /** Our entry in {@code sparkscope heuristics}. */
    @Override
    public String description() {
        return """
                many very short jobs (≥ `minJobs` 100 LOW, ≥ `manyJobs` 5000 HIGH, each under `shortJobMs` 200 ms),
                because they usually mean an action inside a loop and each job pays Spark's scheduling overhead.
                """;
    }

    @Override
    public List<Finding> evaluate(AppSnapshot app, HeuristicConfig cfg) {
        double shortMs = cfg.threshold(ID + ".shortJobMs");
        List<JobSummary> shortJobs = shortJobs(app.jobs(), shortMs);
        // Levels grades a value against a LOW and a HIGH level; the built-in heuristics use cfg.levels(prefix),
        // which reads <prefix>.low and <prefix>.high.
        Severity severity = new Levels(cfg.threshold(ID + ".minJobs"), cfg.threshold(ID + ".manyJobs"))
                .grade(shortJobs.size());
        if (severity == Severity.NONE) {
            return List.of();
        }
        // What fixing it saves, from the application's own numbers: batched into one job, the loop would spend
        // about one job's time instead of all of theirs.
        long spent = shortJobs.stream().mapToLong(JobSummary::durationMs).sum();
        long longest = shortJobs.stream().mapToLong(JobSummary::durationMs).max().orElse(0);
        // Advice as data: the engine drops it if it asks for the value in force and reconciles it with other
        // findings that touch the same key; the text names it through phrase().
        SparkSettings conf = SparkSettings.of(app);
        SettingAdvice fair = conf.advise("spark.scheduler.mode", "FAIR",
                shortJobs.size() + " short jobs queue behind each other in FIFO mode");
        return List.of(Finding.builder(ID, severity)
                .title(shortJobs.size() + " very short jobs")
                .message(shortJobs.size() + " of " + app.jobs().size() + " jobs took less than " + (long) shortMs
                        + " ms each; each job pays the driver's scheduling overhead.")
                .recommendation("Look for an action (count, collect, show) inside a loop and batch the work into "
                        + "one job, e.g. a join or a groupBy instead of one query per item. If the jobs come from "
                        + "threads that should run side by side, " + fair.phrase() + " lets them share executors.")
                .advise(fair)
                .impact(Impact.of(Math.max(0, spent - longest), 0, "the short jobs' time beyond one job's"))
                .detail("shortJobs", shortJobs.size())
                .detail("jobs", app.jobs().size())
                .build());
    }

    private static List<JobSummary> shortJobs(List<JobSummary> jobs, double shortMs) {
        return jobs.stream().filter(j -> j.completionTime() > 0 && j.durationMs() < shortMs).toList();
    }
}
