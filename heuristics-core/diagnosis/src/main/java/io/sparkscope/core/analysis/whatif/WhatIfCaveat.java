package io.sparkscope.core.analysis.whatif;

/** Why a what-if estimate deserves less trust than its numbers suggest; the caller decides how to word it. */
public enum WhatIfCaveat {
    /** Some stages kept only their slowest tasks; the others' durations were rebuilt from the stage's quantiles. */
    TASKS_RECONSTRUCTED,
    /** Executor cores were not reported; the slot count was inferred from the most tasks seen running at once. */
    CORES_INFERRED,
    /** The number of executors changed during the run (e.g. dynamic allocation); the most alive at once is used. */
    EXECUTORS_VARIED,
    /** The application has not ended (or its log is cut): the actual duration is up to its newest event. */
    INCOMPLETE_APPLICATION,
    /** Jobs ran concurrently; they are simulated together on one pool of slots. */
    CONCURRENT_JOBS,
    /** No stage ran tasks: the estimate is the driver time at every executor count. */
    NO_TASKS,
    /**
     * The run had more slots than its busiest phase had tasks (often a core count no executor has, from a damaged
     * log): every count is simulated with at most one slot per task, which gives the same estimate (a slot without a
     * task changes nothing) and keeps the work bounded by the tasks.
     */
    SLOTS_CAPPED
}
