package io.sparkscope.ingest.fetch;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * One completed application attempt as the History Server lists it ({@code /applications?status=completed}).
 *
 * @param attemptId    null for applications without attempts (local mode, standalone client mode)
 * @param sparkVersion null when the log did not say (Spark before 1.3)
 */
public record ListedApp(String appId, String attemptId, String name, String sparkUser, String sparkVersion,
                        long startTime, long endTime, boolean completed) {

    /** {@code applications/{id}[/{attempt}]}: the API path of this attempt. */
    String apiPath() {
        return "applications/" + HistoryClient.segment(appId)
                + (attemptId == null ? "" : "/" + HistoryClient.segment(attemptId));
    }

    /** {@code app-1 (attempt 2)}, for progress lines. */
    public String label() {
        return attemptId == null ? appId : appId + " (attempt " + attemptId + ")";
    }

    /** The completed attempts of one application of an {@code /applications} answer (none without an id). */
    static List<ListedApp> parseOne(JsonNode app) {
        String id = RestJson.text(app, "id");
        if (id == null) {
            return List.of();
        }
        List<ListedApp> out = new ArrayList<>(1);
        for (JsonNode a : app.path("attempts")) {
            if (!a.path("completed").asBoolean(false)) {
                continue;
            }
            String version = RestJson.text(a, "appSparkVersion");
            out.add(new ListedApp(id, RestJson.text(a, "attemptId"), RestJson.text(app, "name"),
                    RestJson.text(a, "sparkUser"), version == null || version.isEmpty() ? null : version,
                    epoch(a, "startTime"), epoch(a, "endTime"), true));
        }
        return out;
    }

    /** The {@code …Epoch} field when present (Spark 2.0+), else the date string. */
    private static long epoch(JsonNode attempt, String field) {
        JsonNode e = attempt.get(field + "Epoch");
        if (e != null && e.canConvertToLong() && e.asLong() > 0) {
            return e.asLong();
        }
        return SparkDates.parse(RestJson.text(attempt, field));
    }
}
