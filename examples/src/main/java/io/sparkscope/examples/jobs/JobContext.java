package io.sparkscope.examples.jobs;

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

import java.nio.file.Path;

/**
 * What a job gets from the runner: the shared Spark configuration (local mode, event log, optionally the Sparkscope
 * listener), the run's scale (input size multiplier; 1 unless the job is run as a series) and a working directory
 * for inputs and outputs the job writes.
 */
public record JobContext(SparkConf baseConf, int scale, Path workDir) {

    /** A new application (its own SparkContext) with the base configuration plus the job's settings. */
    public SparkSession start(SparkConf conf) {
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
        return SparkSession.builder().config(conf).getOrCreate();
    }

    /** A copy of the base configuration named {@code appName}. */
    public SparkConf conf(String appName) {
        return baseConf.clone().setAppName(appName);
    }
}
