package io.sparkscope.server.web.api;

import io.sparkscope.core.heuristics.Finding;
import io.sparkscope.core.heuristics.FixFirst;
import io.sparkscope.core.heuristics.SettingAdvice;
import io.sparkscope.server.web.model.Diagnosis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A finding as the API answers it, field by field, so the reply's shape is written down here rather than following
 * every component the core record gains. The API's only reader of findings, with {@link Headline} and {@link Fix}.
 *
 * @param impact   what fixing it would save (wall and task time in ms, and how that was estimated)
 * @param causedBy the id of the finding it is a knock-on of, null for a root cause
 * @param advice   each setting it asks to change: its value now (and whether set or Spark's default), the value
 *                 to try and why
 */
record FindingJson(String id, String heuristic, String severity, String title, String message, String recommendation,
                   Impact impact, String causedBy, List<Advice> advice, List<String> stageIds,
                   List<String> executorIds, List<String> configKeys, Map<String, Object> details) {

    /** @param coreMs idle executor core time the fix would free without shortening the run */
    record Impact(long wallMs, long taskMs, long coreMs, String basis) {
        static Impact of(io.sparkscope.core.heuristics.Impact i) {
            return new Impact(i.wallMs(), i.taskMs(), i.coreMs(), i.basis());
        }
    }

    record Advice(String key, String currentValue, String currentSource, String recommendedValue,
                  List<String> reasons) {
        static Advice of(SettingAdvice a) {
            return new Advice(a.key(), a.currentValue(), a.currentSource().name(), a.recommendedValue(), a.reasons());
        }
    }

    static FindingJson of(Finding f) {
        return new FindingJson(f.id(), f.heuristic(), f.severity().name(), f.title(), f.message(), f.recommendation(),
                Impact.of(f.impact()), f.causedBy(),
                f.advice().stream().map(Advice::of).toList(), f.stageIds(), f.executorIds(), f.configKeys(),
                f.details());
    }

    /** In the application page's order: root causes by estimated saving, each followed by its knock-ons. */
    static List<FindingJson> all(Diagnosis d) {
        List<FindingJson> out = new ArrayList<>(d.total());
        for (Diagnosis.Node n : d.roots()) {
            add(n, out);
        }
        return out;
    }

    private static void add(Diagnosis.Node n, List<FindingJson> out) {
        out.add(of(n.finding()));
        for (Diagnosis.Node k : n.knockOns()) {
            add(k, out);
        }
    }

    /**
     * One item of the "fix this first" list.
     *
     * @param knockOns        the ids of the findings it causes
     * @param also            the ids of other root causes the same remedy fixes
     * @param savingEstimated false for a HIGH finding whose saving cannot be estimated
     */
    record Fix(String findingId, String heuristic, String severity, String title, Impact impact,
               List<String> knockOns, String sentence, List<String> also, boolean savingEstimated) {
        static List<Fix> all(FixFirst f) {
            return f.items().stream().map(i -> new Fix(i.findingId(), i.heuristic(), i.severity().name(), i.title(),
                    Impact.of(i.impact()), i.knockOns(),
                    i.sentence(), i.also(), i.savingEstimated())).toList();
        }
    }

    /** What the search API lists of each finding: enough for a banner. */
    record Headline(String heuristic, String severity, String title, String message) {
        static List<Headline> all(List<Finding> findings) {
            return findings.stream().map(f -> new Headline(f.heuristic(), f.severity().name(), f.title(), f.message()))
                    .toList();
        }
    }
}
