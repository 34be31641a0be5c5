package io.sparkscope.server.web.model;

import io.sparkscope.core.heuristics.ErrorGroups;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One error as a person reads it on the application page: the normalised message (what varies from one failure to
 * the next masked: {@code <host>}, {@code <n>}, {@code <path>}…), how often it occurred, its first occurrence verbatim
 * (the exception line and the top of its stack) and where: stages, executors, jobs. Read from a finding's details,
 * where the failure heuristics put them ({@link ErrorGroups#top}).
 *
 * @param kind what failed: task attempts, jobs, or the stage itself
 */
public record ErrorGroup(Kind kind, String signature, int count, String first, List<String> stages,
                         List<String> executors, List<String> jobs) {
    public enum Kind {
        TASK("failed task attempts"), JOB("failed jobs"), STAGE("stage failure");

        public final String words;

        Kind(String words) {
            this.words = words;
        }
    }

    public ErrorGroup {
        stages = List.copyOf(stages);
        executors = List.copyOf(executors);
        jobs = List.copyOf(jobs);
    }

    /**
     * The groups of one finding: its stage's own failure reason (StageFailure), the failed jobs' reasons (JobFailure)
     * and its task errors ({@code errorGroups}), in that order.
     */
    public static List<ErrorGroup> of(List<String> findingStages, Map<String, Object> details) {
        List<ErrorGroup> out = new ArrayList<>();
        if (details.get("failureReason") instanceof String reason && !reason.isBlank()) {
            String signature = details.get("signature") instanceof String s ? s : ErrorGroups.signature(reason);
            out.add(new ErrorGroup(Kind.STAGE, signature, 1, reason, findingStages, List.of(), List.of()));
        }
        if (details.get("reasons") instanceof List<?> reasons) {
            for (Object o : reasons) {
                if (o instanceof Map<?, ?> m) {
                    out.add(new ErrorGroup(Kind.JOB, text(m.get("signature")), count(m.get("count")),
                            text(m.get("first")), List.of(), List.of(), strings(m.get("jobIds"))));
                }
            }
        }
        if (details.get("errorGroups") instanceof List<?> groups) {
            for (Object o : groups) {
                if (o instanceof Map<?, ?> m) {
                    out.add(new ErrorGroup(Kind.TASK, text(m.get("signature")), count(m.get("count")),
                            text(m.get("first")), strings(m.get("stages")), strings(m.get("executors")), List.of()));
                }
            }
        }
        return out;
    }

    private static String text(Object o) {
        return o == null ? "" : String.valueOf(o);
    }

    private static int count(Object o) {
        return o instanceof Number n ? n.intValue() : 0;
    }

    private static List<String> strings(Object o) {
        if (!(o instanceof List<?> l)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Object x : l) {
            out.add(String.valueOf(x));
        }
        return out;
    }
}
