/**
 * Hand-built {@link io.sparkscope.core.model.AppSnapshot}s for the tests of every module, published in the core
 * modules' test-jars (depend on {@code sparkscope-model}, {@code sparkscope-recording} and
 * {@code sparkscope-diagnosis} with {@code <type>test-jar</type>} and scope test). Each builder computes what the recorder would (stage totals over every task, quantiles over the
 * successful ones with Spark's rule, in {@link io.sparkscope.core.testing.SparkQuantiles}), so a test states only
 * the numbers that matter to it.
 * <ul>
 *   <li>{@link io.sparkscope.core.testing.SnapshotBuilder}: the one snapshot fixture. A fluent builder (each task's
 *       metrics set by hand, or a stage DAG with task durations placed in time) and named presets: a skewed stage,
 *       a spilling stage, an application whose executor sat idle, a small application with every kind of row and
 *       hostile strings and a big one for the store, seeded synthetic applications for the web tests, and
 *       {@code copy} to change a few values of any snapshot. Its class comment says which to start from.</li>
 *   <li>{@link io.sparkscope.core.testing.SampleFindings}: findings to store beside those snapshots (diagnosis
 *       test-jar: findings are the diagnosis module's).</li>
 *   <li>{@link io.sparkscope.core.testing.SyntheticLog}: a Spark event log of any size written to a file or a
 *       stream (plain, rolling, growing); the tests that read logs from other filesystems or as they grow.</li>
 * </ul>
 * Besides, where the tests' real event logs are: {@link io.sparkscope.core.testing.ExampleEventLogs} (written by the
 * examples module's jobs, shipped in the repository) and {@link io.sparkscope.core.testing.SharedData} (third-party
 * logs and Spark's golden files beside the repository, read in place; tests skip with a message without them).
 */
package io.sparkscope.core.testing;
