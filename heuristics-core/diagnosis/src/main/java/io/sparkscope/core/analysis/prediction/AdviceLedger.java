package io.sparkscope.core.analysis.prediction;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.core.text.Units;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The settings a job's findings advised, followed across its runs: when the next run of the job has another value for
 * a key a finding of the run before it advised ({@link Finding#advice}), the advice counts as applied there, and what
 * the change did (wall time, task time, time per byte of input) is set against what the finding promised (its
 * {@link io.sparkscope.core.heuristics.Impact}). Advice applied that did not help is named, so the later runs do not
 * put the same setting first again. A pure function of the runs, oldest first.
 */
public final class AdviceLedger {
    /** A change must save at least this share of the time (per byte of input when known) to count as help. */
    public static final double HELPED_SHARE = 0.05;

    private AdviceLedger() {
    }

    /**
     * One run as the ledger reads it.
     *
     * @param coreMsAllocated core time its executors held, what a cluster bills (cores × lifetime); negative when
     *                        not known
     * @param settings        its Spark settings (only the advised keys are needed); a key absent is unset
     * @param findings        its stored findings, with their advice and impact
     */
    public record RunRecord(String appId, long durationMs, long taskTimeMs, long inputBytes, long coreMsAllocated,
                            Map<String, String> settings, List<Finding> findings) {
        public RunRecord {
            settings = Map.copyOf(settings);
            findings = List.copyOf(findings);
        }
    }

    /** What became of one piece of advice. */
    public enum Outcome {
        /** The next run kept the value in force: not applied (yet). */
        NOT_APPLIED,
        /** Applied, and the next run took less time (per byte of input when known). */
        HELPED,
        /** Applied, and the next run took no less time. */
        DID_NOT_HELP
    }

    /**
     * One piece of advice and what became of it.
     *
     * @param givenIn           the run whose finding advised it
     * @param valueThen         the value in force in that run (null: unset)
     * @param appliedIn         the next run, where the value changed (null when not applied)
     * @param valueApplied      its value there (null: unset)
     * @param promisedWallMs    the finding's estimated saving of wall time
     * @param savedWallMs       wall time of {@code givenIn} minus that of {@code appliedIn} (negative: it took longer)
     * @param perByteSavedShare the share of wall time per byte of input saved; NaN when the input is not known
     * @param savedCoreMs       allocated core time (the cost a cluster bills) of {@code givenIn} minus that of
     *                          {@code appliedIn}; {@link Long#MIN_VALUE} when either is not known
     */
    public record Entry(String givenIn, String findingId, String heuristic, String key, String valueThen,
                        String recommendedValue, String appliedIn, String valueApplied, Outcome outcome,
                        long promisedWallMs, long promisedTaskMs, long savedWallMs, long savedTaskMs,
                        double perByteSavedShare, long savedCoreMs) {
        /** Whether the allocated core time (the cost) of both runs is known. */
        public boolean costKnown() {
            return applied() && savedCoreMs != Long.MIN_VALUE;
        }

        public boolean applied() {
            return outcome != Outcome.NOT_APPLIED;
        }

        /** Whether the value applied is the one advised (not only another value). */
        public boolean asAdvised() {
            return valueApplied != null && valueApplied.strip().equalsIgnoreCase(recommendedValue.strip());
        }

        /** The entry in one plain sentence. */
        public String sentence() {
            String advice = key + "=" + recommendedValue + " (was " + (valueThen == null ? "unset" : valueThen)
                    + "), advised by " + heuristic + " in " + givenIn;
            if (!applied()) {
                return advice + ": not applied yet.";
            }
            StringBuilder b = new StringBuilder(advice).append(": applied in ").append(appliedIn)
                    .append(asAdvised() ? "" : " as " + (valueApplied == null ? "unset" : valueApplied))
                    .append("; wall time ").append(change(savedWallMs)).append(" (promised ")
                    .append(Units.duration(promisedWallMs)).append(" less), task time ").append(change(savedTaskMs))
                    .append(" (promised ").append(Units.duration(promisedTaskMs)).append(" less)");
            if (costKnown()) {
                // what the cluster billed: cores held × time, the basis of the run's cost on the history page
                b.append(", cores held ").append(savedCoreMs >= 0 ? Units.coreHours(savedCoreMs) + " less"
                        : Units.coreHours(-savedCoreMs) + " more");
            }
            if (!Double.isNaN(perByteSavedShare)) {
                b.append(", wall time per byte of input ").append(perByteSavedShare >= 0
                        ? Units.percent(perByteSavedShare) + " less" : Units.percent(-perByteSavedShare) + " more");
            }
            return b.append(outcome == Outcome.HELPED ? ": it helped." : ": it did not help.").toString();
        }

        private static String change(long savedMs) {
            return savedMs >= 0 ? Units.duration(savedMs) + " less" : Units.duration(-savedMs) + " more";
        }

        /** The entry as plain maps and lists, for JSON. */
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("givenIn", givenIn);
            m.put("findingId", findingId);
            m.put("heuristic", heuristic);
            m.put("key", key);
            m.put("valueThen", valueThen);
            m.put("recommendedValue", recommendedValue);
            m.put("applied", applied());
            m.put("appliedIn", appliedIn);
            m.put("valueApplied", valueApplied);
            m.put("asAdvised", asAdvised());
            m.put("outcome", outcome.name());
            m.put("promisedWallMs", promisedWallMs);
            m.put("promisedTaskMs", promisedTaskMs);
            m.put("savedWallMs", applied() ? savedWallMs : null);
            m.put("savedTaskMs", applied() ? savedTaskMs : null);
            m.put("perByteSavedShare", Double.isNaN(perByteSavedShare) ? null : Units.round2(perByteSavedShare));
            m.put("savedCoreMs", costKnown() ? savedCoreMs : null);
            m.put("sentence", sentence());
            return m;
        }
    }

    /**
     * The advice of every run but the newest, each checked against the run after it, then the newest run's advice
     * (not applied yet). Advice a run repeats because the one before did not apply it is listed once, at the last run
     * that gave it.
     *
     * @param runsOldestFirst the job's COMPLETE runs, oldest first
     */
    public static List<Entry> of(List<RunRecord> runsOldestFirst) {
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < runsOldestFirst.size(); i++) {
            RunRecord given = runsOldestFirst.get(i);
            RunRecord next = i + 1 < runsOldestFirst.size() ? runsOldestFirst.get(i + 1) : null;
            for (Finding f : given.findings()) {
                for (SettingAdvice a : f.advice()) {
                    String then = given.settings().get(a.key());
                    String after = next == null ? then : next.settings().get(a.key());
                    boolean applied = next != null && !Objects.equals(then, after);
                    if (!applied && next != null && advises(next, a)) {
                        continue; // the next run says it again: listed there
                    }
                    out.add(entry(given, next, f, a, then, after, applied));
                }
            }
        }
        return out;
    }

    private static boolean advises(RunRecord run, SettingAdvice a) {
        for (Finding f : run.findings()) {
            SettingAdvice b = f.adviceFor(a.key());
            if (b != null && b.recommendedValue().equals(a.recommendedValue())) {
                return true;
            }
        }
        return false;
    }

    private static Entry entry(RunRecord given, RunRecord next, Finding f, SettingAdvice a, String then,
                               String after, boolean applied) {
        long promisedWall = f.impact().wallMs();
        long promisedTask = f.impact().taskMs();
        if (!applied) {
            return new Entry(given.appId(), f.id(), f.heuristic(), a.key(), then, a.recommendedValue(), null, null,
                    Outcome.NOT_APPLIED, promisedWall, promisedTask, 0, 0, Double.NaN, Long.MIN_VALUE);
        }
        long savedWall = given.durationMs() - next.durationMs();
        long savedTask = given.taskTimeMs() - next.taskTimeMs();
        double perByte = Double.NaN;
        if (given.inputBytes() > 0 && next.inputBytes() > 0 && given.durationMs() > 0) {
            double before = (double) given.durationMs() / given.inputBytes();
            double now = (double) next.durationMs() / next.inputBytes();
            perByte = 1 - now / before;
        }
        long savedCore = given.coreMsAllocated() >= 0 && next.coreMsAllocated() >= 0
                ? given.coreMsAllocated() - next.coreMsAllocated() : Long.MIN_VALUE;
        double share = !Double.isNaN(perByte) ? perByte
                : given.durationMs() > 0 ? (double) savedWall / given.durationMs() : 0;
        return new Entry(given.appId(), f.id(), f.heuristic(), a.key(), then, a.recommendedValue(), next.appId(),
                after, share >= HELPED_SHARE ? Outcome.HELPED : Outcome.DID_NOT_HELP, promisedWall, promisedTask,
                savedWall, savedTask, perByte, savedCore);
    }

    /**
     * The settings whose advice was applied in {@code runsUpTo} or before and did not help, with the sentence that says
     * so: a later run's "Fix this first" puts findings advising them after the others.
     *
     * @param appliedUpTo the runs (app ids) that count: those not after the run being shown
     */
    public static Map<String, String> notHelped(List<Entry> entries, java.util.Set<String> appliedUpTo) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Entry e : entries) {
            if (e.outcome() == Outcome.DID_NOT_HELP && appliedUpTo.contains(e.appliedIn())) {
                out.put(e.key(), e.sentence());
            } else if (e.outcome() == Outcome.HELPED) {
                out.remove(e.key());
            }
        }
        return out;
    }
}
