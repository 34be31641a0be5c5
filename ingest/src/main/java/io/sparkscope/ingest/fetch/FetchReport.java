package io.sparkscope.ingest.fetch;

import java.util.List;
import java.util.OptionalLong;

/**
 * What one fetch run did.
 *
 * @param listed        completed attempts the History Server listed in the asked end-time range
 * @param alreadyStored of those, attempts the database already held complete (not fetched again)
 * @param fetched       attempts fetched and stored (or found unchanged)
 * @param failures      one line per attempt that could not be fetched or stored
 * @param databaseLost  why the run stopped because the database went away, or null when it did not; the attempts
 *                      not done by then are neither fetched nor in {@code failures}
 * @param newestEndTime the end time to remember for the next run: the newest listed when everything was fetched,
 *                      else just before the oldest attempt that was not (so the next run lists it again); empty when
 *                      nothing was listed
 */
public record FetchReport(int listed, int alreadyStored, int fetched, List<String> failures, String databaseLost,
                          OptionalLong newestEndTime) {
    public FetchReport {
        failures = List.copyOf(failures);
    }
}
