package io.sparkscope.server.web.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.sparkscope.server.web.model.StoredJson;
import io.sparkscope.store.StoredFinding;

import java.util.List;
import java.util.Map;

/**
 * A finding as the API answers it: every field as stored, its numbers ({@code details}) as a JSON object rather than
 * the stored text. The API's only reader of stored findings, with {@link Headline}.
 */
record FindingJson(@JsonUnwrapped @JsonIgnoreProperties("detailsJson") StoredFinding finding,
                   Map<String, Object> details) {

    static List<FindingJson> all(List<StoredFinding> findings) {
        return findings.stream().map(f -> new FindingJson(f, StoredJson.object(f.detailsJson()))).toList();
    }

    /** What the search API lists of each finding: enough for a banner. */
    record Headline(String heuristic, String severity, String title, String message) {
        static List<Headline> all(List<StoredFinding> findings) {
            return findings.stream().map(f -> new Headline(f.heuristic(), f.severity(), f.title(), f.message())).toList();
        }
    }
}
