package io.sparkscope.ingest.fetch;

/** Where {@code sparkscope fetch} takes an application from. */
public enum FetchSource {
    /** The event logs ({@code …/logs}); the REST API when the History Server refuses to hand them out. */
    AUTO,
    /** Only the event logs: exactly what {@code import} of the same files gives. */
    LOGS,
    /** Only the REST API (stages, task summaries, task lists, …): less detail, less data to transfer. */
    REST
}
