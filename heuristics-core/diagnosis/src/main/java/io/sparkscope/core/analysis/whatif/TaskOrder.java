package io.sparkscope.core.analysis.whatif;

/**
 * The order in which the simulation hands one stage's tasks to free slots.
 *
 * <p>The snapshot keeps launch times only for the slowest tasks of a stage, so neither order replays Spark exactly:
 * {@link #LONGEST_FIRST} is deterministic and needs no launch times (it is the classic LPT list schedule, within 4/3
 * of the best packing of the slots); {@link #LAUNCH_ORDER} keeps the kept tasks where Spark launched them, which
 * keeps a late straggler late, and spreads the reconstructed tasks evenly among them.
 */
public enum TaskOrder {
    /** Longest task first (LPT): a best case for the given slots; the default. */
    LONGEST_FIRST,
    /** Kept tasks by their real launch time; reconstructed tasks interleaved evenly over the stage's launches. */
    LAUNCH_ORDER
}
