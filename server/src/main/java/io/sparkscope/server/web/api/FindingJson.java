package io.sparkscope.server.web.api;

import io.sparkscope.core.heuristics.Finding;

import java.util.List;
import java.util.Map;

/**
 * A finding as the API answers it, field by field, so the reply's shape is written down here rather than following
 * every component the core record gains. The API's only reader of findings, with {@link Headline}.
 */
record FindingJson(String id, String heuristic, String severity, String title, String message, String recommendation,
                   List<String> stageIds, List<String> executorIds, List<String> configKeys,
                   Map<String, Object> details) {

    static List<FindingJson> all(List<Finding> findings) {
        return findings.stream().map(f -> new FindingJson(f.id(), f.heuristic(), f.severity().name(), f.title(),
                f.message(), f.recommendation(), f.stageIds(), f.executorIds(), f.configKeys(), f.details())).toList();
    }

    /** What the search API lists of each finding: enough for a banner. */
    record Headline(String heuristic, String severity, String title, String message) {
        static List<Headline> all(List<Finding> findings) {
            return findings.stream().map(f -> new Headline(f.heuristic(), f.severity().name(), f.title(), f.message()))
                    .toList();
        }
    }
}
