package io.sparkscope.examples.jobs;

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

import java.nio.file.Path;
import java.util.Map;

/**
 * What a job gets from the runner: the shared Spark configuration (local mode, event log, optionally the Sparkscope
 * listener), the run's scale (input size multiplier; 1 unless the job is run as a series), a working directory
 * for inputs and outputs the job writes, and settings that win over the job's own (to rerun a job with the settings
 * a finding advises; usually none).
 */
public record JobContext(SparkConf baseConf, int scale, Path workDir, Map<String, String> overrides) {

    public JobContext {
        overrides = overrides == null ? Map.of() : Map.copyOf(overrides);
    }

    public JobContext(SparkConf baseConf, int scale, Path workDir) {
        this(baseConf, scale, workDir, Map.of());
    }

    /** A new application (its own SparkContext) with the base configuration, the job's settings, then the overrides. */
    public SparkSession start(SparkConf conf) {
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
        // set last, so an override wins over what the job itself set on the conf
        SparkConf effective = conf.clone();
        overrides.forEach(effective::set);
        return SparkSession.builder().config(effective).getOrCreate();
    }

    /** A copy of the base configuration named {@code appName}. */
    public SparkConf conf(String appName) {
        return baseConf.clone().setAppName(appName);
    }
}
