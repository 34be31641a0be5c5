package io.sparkscope.core.heuristics;

import io.sparkscope.core.model.AppSnapshot;
import io.sparkscope.core.model.JobSummary;
import io.sparkscope.core.model.StageSummary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Groups knock-on findings under their cause, after all heuristics ran, so no heuristic has to know the others: a
 * stage fails because its tasks failed (TaskFailure → StageFailure), a job fails because a stage failed (StageFailure
 * → JobFailure), other stages are cancelled because of that failure, and stages of the same error elsewhere are the
 * same problem. Those failure chains read the snapshot, so they live here. Simpler links are declared by the effect's
 * heuristic ({@link Heuristic#causes()}): a finding is caused by the listed heuristic's finding at the same location,
 * e.g. a stage of tiny tasks is driver-bound because its tasks are tiny (SmallTasks → SchedulerDelay), and cores sit
 * idle while only the driver works (DriverTime → IdleCores). A cause's estimated saving includes its effects': fixing
 * it removes them too.
 */
public final class CauseLinker {
    private CauseLinker() {
    }

    /**
     * The findings with {@link Finding#causedBy()} set and each root cause's impact raised to its effects' largest.
     *
     * @param declaredCauses by heuristic id, the heuristics whose finding at the same location causes its finding
     *                       ({@link Heuristic#causes()})
     */
    public static List<Finding> link(AppSnapshot app, List<Finding> findings, Map<String, List<String>> declaredCauses) {
        Map<String, Finding> byId = new LinkedHashMap<>();
        for (Finding f : findings) {
            byId.putIfAbsent(f.id(), f);
        }
        Map<String, String> cause = new HashMap<>();
        for (Finding f : findings) {
            if (f.causedBy() != null && byId.containsKey(f.causedBy()) && !f.causedBy().equals(f.id())) {
                cause.put(f.id(), f.causedBy()); // a heuristic that knows its cause keeps it
            }
        }
        Map<String, StageSummary> stages = new HashMap<>();
        for (StageSummary s : app.stages()) {
            stages.put(s.key(), s);
        }
        // Stage failures that are causes (not cancellations), earliest first.
        List<StageSummary> rootFailures = app.stages().stream()
                .filter(s -> s.status() == StageSummary.StageStatus.FAILED && !cancelled(s.failureReason()))
                .filter(s -> byId.containsKey(id("StageFailure", s.key())))
                .sorted(Comparator.comparingLong(CauseLinker::failedAt))
                .toList();
        for (StageSummary s : app.stages()) {
            if (s.status() != StageSummary.StageStatus.FAILED) {
                continue;
            }
            String stageFailure = id("StageFailure", s.key());
            if (!byId.containsKey(stageFailure) || cause.containsKey(stageFailure)) {
                continue;
            }
            if (!cancelled(s.failureReason())) {
                link(cause, byId, stageFailure, id("TaskFailure", s.key()));
            } else {
                StageSummary by = cancelledBy(s, rootFailures);
                if (by != null) {
                    link(cause, byId, stageFailure, id("StageFailure", by.key()));
                }
            }
        }
        if (byId.containsKey("JobFailure") && !cause.containsKey("JobFailure")) {
            Set<Integer> failedJobs = new HashSet<>();
            for (JobSummary j : app.jobs()) {
                if (j.status() == JobSummary.JobStatus.FAILED) {
                    failedJobs.add(j.jobId());
                }
            }
            rootFailures.stream().filter(s -> s.jobIds().stream().anyMatch(failedJobs::contains)).findFirst()
                    .or(() -> rootFailures.stream().findFirst())
                    .ifPresent(s -> link(cause, byId, "JobFailure", id("StageFailure", s.key())));
        }
        // Task failures with the same (normalised) error as a task failure already in a chain are that problem too.
        Map<String, String> chainedErrors = new HashMap<>();
        for (Finding f : findings) {
            if (f.heuristic().equals("TaskFailure") && isCause(f.id(), cause)) {
                String sig = topErrorSignature(f);
                if (sig != null) {
                    chainedErrors.putIfAbsent(sig, f.id());
                }
            }
        }
        for (Finding f : findings) {
            if (f.heuristic().equals("TaskFailure") && !cause.containsKey(f.id()) && !isCause(f.id(), cause)) {
                String sig = topErrorSignature(f);
                String same = sig == null ? null : chainedErrors.get(sig);
                if (same != null && !same.equals(f.id())) {
                    link(cause, byId, f.id(), same);
                }
            }
        }
        for (Finding f : findings) {
            List<String> causes = declaredCauses.getOrDefault(f.heuristic(), List.of());
            if (causes.isEmpty() || cause.containsKey(f.id())) {
                continue;
            }
            // Same location: "SchedulerDelay:3.0" is caused by "SmallTasks:3.0", "IdleCores" by "DriverTime".
            int colon = f.id().indexOf(':');
            String at = colon < 0 ? "" : f.id().substring(colon);
            for (String c : causes) {
                if (byId.containsKey(c + at)) {
                    link(cause, byId, f.id(), c + at);
                    break;
                }
            }
        }
        return withCauses(findings, cause, byId);
    }

    private static List<Finding> withCauses(List<Finding> findings, Map<String, String> cause,
                                            Map<String, Finding> byId) {
        // A cause saves what its effects cost: raise each root's impact to the largest in its group.
        Map<String, Impact> groupImpact = new HashMap<>();
        Map<String, String> groupBasisFrom = new HashMap<>();
        for (Finding f : findings) {
            String root = root(f.id(), cause);
            Impact best = groupImpact.get(root);
            if (best == null || f.impact().compareTo(best) > 0) {
                groupImpact.put(root, f.impact());
                groupBasisFrom.put(root, f.id());
            }
        }
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            Finding g = f.withCausedBy(cause.get(f.id()));
            if (!cause.containsKey(f.id())) {
                Impact best = groupImpact.get(f.id());
                String from = groupBasisFrom.get(f.id());
                if (best != null && best.compareTo(f.impact()) > 0 && from != null && !from.equals(f.id())) {
                    g = g.withImpact(new Impact(best.wallMs(), best.taskMs(), best.coreMs(),
                            best.basis() + ", through the " + byId.get(from).heuristic() + " it causes"));
                }
            }
            out.add(g);
        }
        return out;
    }

    /** Follows causedBy to the root; a cycle (only possible with hand-made causes) stops where it closes. */
    static String root(String id, Map<String, String> cause) {
        Set<String> seen = new HashSet<>();
        String cur = id;
        while (cause.containsKey(cur) && seen.add(cur)) {
            cur = cause.get(cur);
        }
        return cur;
    }

    private static boolean isCause(String id, Map<String, String> cause) {
        return cause.containsValue(id);
    }

    private static void link(Map<String, String> cause, Map<String, Finding> byId, String effect, String causeId) {
        if (byId.containsKey(effect) && byId.containsKey(causeId) && !effect.equals(causeId)
                && !root(causeId, cause).equals(effect)) {
            cause.put(effect, causeId);
        }
    }

    private static String id(String heuristic, String location) {
        return heuristic + ":" + location;
    }

    /** Spark's words for a stage or job stopped from outside rather than failing on its own. */
    public static boolean cancelled(String reason) {
        if (reason == null) {
            return false;
        }
        String r = reason.toLowerCase(Locale.ROOT);
        return !r.contains("job aborted due to stage failure")
                && (r.contains("cancelled") || r.contains("canceled") || r.contains("killed")
                || r.contains("sparkcontext was shut down"));
    }

    private static long failedAt(StageSummary s) {
        return s.completionTime() > 0 ? s.completionTime() : Long.MAX_VALUE;
    }

    // The failure that cancelled a stage: one in a job it shares, else the latest that ended before it.
    private static StageSummary cancelledBy(StageSummary s, List<StageSummary> rootFailures) {
        for (StageSummary r : rootFailures) {
            if (r.jobIds().stream().anyMatch(s.jobIds()::contains)) {
                return r;
            }
        }
        long at = failedAt(s);
        for (int i = rootFailures.size() - 1; i >= 0; i--) {
            if (failedAt(rootFailures.get(i)) <= at) {
                return rootFailures.get(i);
            }
        }
        return rootFailures.isEmpty() ? null : rootFailures.get(0);
    }

    @SuppressWarnings("unchecked")
    private static String topErrorSignature(Finding f) {
        Object groups = f.details().get("errorGroups");
        if (groups instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof Map<?, ?> m) {
            Object sig = m.get("signature");
            return sig instanceof String s && !s.isBlank() ? s : null;
        }
        return null;
    }
}
