package io.sparkscope.examples.corpus;

import io.sparkscope.examples.jobs.ExampleJob;
import io.sparkscope.examples.jobs.JobContext;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * One application of the diagnosis corpus: a short Spark run built to show one named problem (or none, for the
 * clean references). Its label, what Sparkscope should name as the root cause, lives apart in
 * {@code examples/corpus/labels/<name>.json}, so that judging the diagnosis never depends on how the app was written.
 *
 * @param name       the app's name: Spark application name, event-log folder and label file name
 * @param problem    one line: what the app does wrong (or "clean")
 * @param jvmOptions options for the JVM that runs it (the driver is also the executor in local mode)
 * @param settings   Spark settings on top of the corpus's base configuration
 * @param body       the workload, given a started session; null for a reused example job
 * @param fix        the same app with its problem fixed, as the corpus ships it; null when it has none
 */
public record CorpusApp(String name, String problem, List<String> jvmOptions, UnaryOperator<SparkConf> settings,
                        Body body, Fix fix) {

    /** The workload of an app. */
    @FunctionalInterface
    public interface Body {
        void run(SparkSession spark, JobContext ctx) throws Exception;
    }

    /**
     * The fixed variant of an app: the code (and, when the remedy is a setting the app itself chose, its settings)
     * after the fix a user would make, so that a finding's promised saving can be checked by running both.
     *
     * @param what     one line: what the fix changes, e.g. "repartition(8) instead of repartition(2)"
     * @param settings Spark settings on top of the base configuration (in place of the app's own)
     * @param body     the fixed workload
     */
    public record Fix(String what, UnaryOperator<SparkConf> settings, Body body) {
    }

    public CorpusApp {
        jvmOptions = List.copyOf(jvmOptions);
    }

    static CorpusApp of(String name, String problem, UnaryOperator<SparkConf> settings, Body body) {
        return new CorpusApp(name, problem, List.of(), settings, body, null);
    }

    /** An example job of the demo reused as it is (it starts and stops its own session). */
    static CorpusApp reuse(ExampleJob job) {
        return new CorpusApp(job.name(), job.title(), job.jvmOptions(), c -> c, null, null);
    }

    /** This app with a fixed variant that keeps the app's settings and changes its code. */
    CorpusApp fixedBy(String what, Body fixedBody) {
        return fixedBy(what, settings, fixedBody);
    }

    /** This app with a fixed variant of its own settings and code. */
    CorpusApp fixedBy(String what, UnaryOperator<SparkConf> fixedSettings, Body fixedBody) {
        return new CorpusApp(name, problem, jvmOptions, settings, body, new Fix(what, fixedSettings, fixedBody));
    }

    public boolean hasFix() {
        return fix != null;
    }

    /** Runs the app in this JVM: one SparkContext, stopped at the end whatever happens. */
    public void run(JobContext ctx) throws Exception {
        run(ctx, false);
    }

    /**
     * Runs the app, or its fixed variant, in this JVM.
     *
     * @throws IllegalArgumentException when {@code fixed} is asked of an app without a fixed variant
     */
    public void run(JobContext ctx, boolean fixed) throws Exception {
        if (fixed && fix == null) {
            throw new IllegalArgumentException("corpus app '" + name + "' has no fixed variant");
        }
        if (!fixed && body == null) {
            ExampleJob job = io.sparkscope.examples.jobs.Catalog.find(name).orElseThrow();
            job.run(ctx);
            return;
        }
        SparkConf conf = fixed ? fix.settings().apply(ctx.conf(name)) : settings.apply(ctx.conf(name));
        SparkSession spark = ctx.start(conf);
        try {
            (fixed ? fix.body() : body).run(spark, ctx);
        } finally {
            spark.stop();
        }
    }
}
