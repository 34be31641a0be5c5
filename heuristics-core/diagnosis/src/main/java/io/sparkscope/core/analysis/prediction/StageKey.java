package io.sparkscope.core.analysis.prediction;

/**
 * How a stage is recognised across runs of one application: stage ids shift when a run has more or fewer stages,
 * names ({@code "count at Job.scala:42"}) do not. A stage is the {@code occurrence}-th stage named {@code name} in
 * the {@code jobPosition}-th job (jobs in submission order, stages by id within it).
 *
 * @param jobPosition 0-based position of the stage's job among the run's jobs; -1 for a stage no job claims
 * @param name        Spark's stage name
 * @param occurrence  0 for the first stage of that name in the job, 1 for the second, …
 */
public record StageKey(int jobPosition, String name, int occurrence) {
}
