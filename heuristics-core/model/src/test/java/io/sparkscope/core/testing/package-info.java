/**
 * Hand-built {@link io.sparkscope.core.model.AppSnapshot}s for the tests of every module, published in the core
 * modules' test-jars (depend on {@code sparkscope-model}, {@code sparkscope-recording} and
 * {@code sparkscope-diagnosis} with {@code <type>test-jar</type>} and scope test). Each builder computes what the recorder would (stage totals over every task, quantiles over the
 * successful ones with Spark's rule, in {@link io.sparkscope.core.testing.SparkQuantiles}), so a test states only
 * the numbers that matter to it.
 * <ul>
 *   <li>{@link io.sparkscope.core.testing.SnapshotBuilder}: one application in a few fluent lines, each task's
 *       metrics set by hand, with presets for the shapes many tests share (a skewed stage, a spilling stage, an
 *       application whose executor sat idle); the heuristics' tests. Its {@code copy} changes a few values of a
 *       snapshot any fixture made (the model records' {@code toBuilder()}, run totals computed again), so a test
 *       never lists every field of a record.</li>
 *   <li>{@link io.sparkscope.core.testing.Apps}: a stage DAG with jobs, executor lifetimes and exact task
 *       durations placed in time; the analyses' tests (what-if, prediction, regression).</li>
 *   <li>{@link io.sparkscope.core.testing.Snapshots}: a small application with every kind of row and hostile
 *       strings, and a big one; the store's round trips and benchmarks.</li>
 *   <li>{@link io.sparkscope.core.testing.SyntheticApps}: many applications from a spec with seeded random task
 *       times, so heuristics find real things; the web tests and the latency bench.</li>
 *   <li>{@link io.sparkscope.core.testing.SyntheticLog}: a Spark event log of any size written to a file or a
 *       stream (plain, rolling, growing); the tests that read logs from other filesystems or as they grow.</li>
 * </ul>
 * Besides, where the tests' real event logs are: {@link io.sparkscope.core.testing.ExampleEventLogs} (written by the
 * examples module's jobs, shipped in the repository) and {@link io.sparkscope.core.testing.SharedData} (third-party
 * logs and Spark's golden files beside the repository, read in place; tests skip with a message without them).
 */
package io.sparkscope.core.testing;
