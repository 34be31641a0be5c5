package io.sparkscope.store.ingest;

import java.util.Objects;

/**
 * The natural key of a stored application attempt.
 *
 * @param attemptId null for an application without attempts (client mode, local)
 */
public record AppKey(String appId, String attemptId) {
    public AppKey {
        Objects.requireNonNull(appId, "appId");
        attemptId = attemptId == null || attemptId.isEmpty() ? null : attemptId;
    }

    /** {@code appId} or {@code appId/attemptId}, as the UI's paths spell it. */
    @Override
    public String toString() {
        return attemptId == null ? appId : appId + "/" + attemptId;
    }
}
