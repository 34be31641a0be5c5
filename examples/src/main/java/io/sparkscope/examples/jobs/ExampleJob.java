package io.sparkscope.examples.jobs;

import java.util.List;

/**
 * One example application: a small, real workload that shows one problem (or none, for the clean job).
 *
 * @see Catalog
 */
public interface ExampleJob {
    /** Command-line name and Spark application name. */
    String name();

    /** One line: what the job does and what problem it shows. */
    String title();

    /** The heuristics this job is built to trip with the default thresholds (empty for the clean job). */
    List<String> expectedFindings();

    /** Extra options for the JVM that runs this job (the driver, which is also the executor in local mode). */
    default List<String> jvmOptions() {
        return List.of();
    }

    /** Scales at which the job runs (several for the recurring job: the same application at growing inputs). */
    default List<Integer> scales() {
        return List.of(1);
    }

    /** Part of the short subset ({@code --examples quick}) used by tests and quick looks. */
    default boolean quick() {
        return false;
    }

    void run(JobContext ctx) throws Exception;
}
