package io.sparkscope.core.analysis.timeline;

/**
 * Where a stage's task time went, from stage-level sums only (no task rows): the five {@link TaskPhase}s, and
 * inside the run time the parts Spark measures separately — GC, waiting for shuffle blocks, writing shuffle output —
 * with the rest as "other computing".
 *
 * <p>The inside parts are measured independently by Spark and can overlap (a GC pause during a shuffle write is in
 * both); when together they exceed the run time they are scaled down to fit it, and {@link #insideRunScaled} says
 * so. Scheduler delay and getting-result time are not Spark task metrics; they are null when unknown (stages
 * stored before they were summed), and then the breakdown covers the executor-side phases only.
 *
 * @param schedulerDelayMs       Σ scheduler delay, or null when unknown
 * @param gettingResultMs        Σ getting-result time, or null when unknown
 * @param gcMs                   inside {@code runMs}
 * @param shuffleReadWaitMs      inside {@code runMs}: Spark's shuffle fetch wait time
 * @param shuffleWriteMs         inside {@code runMs}: Spark's shuffle write time (reported in ns, here ms)
 * @param otherRunMs             the rest of {@code runMs}
 */
public record TimeBreakdown(
        Long schedulerDelayMs,
        long deserializeMs,
        long runMs,
        long resultSerializationMs,
        Long gettingResultMs,
        long gcMs,
        long shuffleReadWaitMs,
        long shuffleWriteMs,
        long otherRunMs,
        boolean insideRunScaled) {

    /** The parts in drawing order, each with its ms; null parts (unknown) are left out. */
    public enum Part {
        SCHEDULER_DELAY("Scheduler delay", TaskPhase.SCHEDULER_DELAY),
        DESERIALIZATION("Deserialization", TaskPhase.DESERIALIZATION),
        GC("GC (in run)", TaskPhase.RUN),
        SHUFFLE_READ("Shuffle read wait (in run)", TaskPhase.RUN),
        SHUFFLE_WRITE("Shuffle write (in run)", TaskPhase.RUN),
        OTHER_RUN("Computing (rest of run)", TaskPhase.RUN),
        RESULT_SERIALIZATION("Result serialization", TaskPhase.RESULT_SERIALIZATION),
        GETTING_RESULT("Getting result", TaskPhase.GETTING_RESULT);

        public final String label;
        public final TaskPhase phase;

        Part(String label, TaskPhase phase) {
            this.label = label;
            this.phase = phase;
        }

        public String cssName() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * @param shuffleWriteNs Spark reports shuffle write time in nanoseconds
     */
    public static TimeBreakdown of(Long schedulerDelayMs, Long gettingResultMs, long deserializeMs, long runMs,
                                   long resultSerializationMs, long gcMs, long fetchWaitMs, long shuffleWriteNs) {
        long run = Math.max(0, runMs);
        long gc = Math.max(0, gcMs);
        long read = Math.max(0, fetchWaitMs);
        long write = Math.max(0, shuffleWriteNs) / 1_000_000;
        long inside = gc + read + write;
        boolean scaled = inside > run;
        if (scaled) {
            double f = inside == 0 ? 0 : (double) run / inside;
            gc = Math.round(gc * f);
            read = Math.round(read * f);
            write = Math.max(0, Math.min(run - gc - read, Math.round(write * f)));
        }
        long other = Math.max(0, run - gc - read - write);
        return new TimeBreakdown(schedulerDelayMs, Math.max(0, deserializeMs), run, Math.max(0, resultSerializationMs),
                gettingResultMs, gc, read, write, other, scaled);
    }

    /** The ms of one part; 0 when unknown. */
    public long ms(Part p) {
        return switch (p) {
            case SCHEDULER_DELAY -> schedulerDelayMs == null ? 0 : schedulerDelayMs;
            case DESERIALIZATION -> deserializeMs;
            case GC -> gcMs;
            case SHUFFLE_READ -> shuffleReadWaitMs;
            case SHUFFLE_WRITE -> shuffleWriteMs;
            case OTHER_RUN -> otherRunMs;
            case RESULT_SERIALIZATION -> resultSerializationMs;
            case GETTING_RESULT -> gettingResultMs == null ? 0 : gettingResultMs;
        };
    }

    /** Whether the driver-side parts (scheduler delay, getting result) are known. */
    public boolean driverSideKnown() {
        return schedulerDelayMs != null && gettingResultMs != null;
    }

    /** Σ of all known parts: the bar's full width. */
    public long totalMs() {
        long t = 0;
        for (Part p : Part.values()) {
            t += ms(p);
        }
        return t;
    }

    /** Share of the driver-side parts in the total (0 when unknown or empty). */
    public double driverSideShare() {
        long total = totalMs();
        return total == 0 ? 0 : (double) (ms(Part.SCHEDULER_DELAY) + ms(Part.GETTING_RESULT)) / total;
    }
}
