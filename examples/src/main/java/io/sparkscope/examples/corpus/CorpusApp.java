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
 * @param body       the workload, given a started session
 */
public record CorpusApp(String name, String problem, List<String> jvmOptions, UnaryOperator<SparkConf> settings,
                        Body body) {

    /** The workload of an app. */
    @FunctionalInterface
    public interface Body {
        void run(SparkSession spark, JobContext ctx) throws Exception;
    }

    public CorpusApp {
        jvmOptions = List.copyOf(jvmOptions);
    }

    static CorpusApp of(String name, String problem, UnaryOperator<SparkConf> settings, Body body) {
        return new CorpusApp(name, problem, List.of(), settings, body);
    }

    /** An example job of the demo reused as it is (it starts and stops its own session). */
    static CorpusApp reuse(ExampleJob job) {
        return new CorpusApp(job.name(), job.title(), job.jvmOptions(), c -> c, null);
    }

    /** Runs the app in this JVM: one SparkContext, stopped at the end whatever happens. */
    public void run(JobContext ctx) throws Exception {
        if (body == null) {
            ExampleJob job = io.sparkscope.examples.jobs.Catalog.find(name).orElseThrow();
            job.run(ctx);
            return;
        }
        SparkSession spark = ctx.start(settings.apply(ctx.conf(name)));
        try {
            body.run(spark, ctx);
        } finally {
            spark.stop();
        }
    }
}
