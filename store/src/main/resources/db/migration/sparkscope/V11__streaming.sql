-- Structured Streaming. One row per query run (Spark's runId, new at every start; queryId stays the same across
-- restarts from one checkpoint) with its lifecycle, its trigger where known (only a live listener can look it up)
-- and running totals over every batch it reported; one row per batch the recorder keeps in its window of recent
-- batches (spark.sparkscope.streaming.batchesPerQuery). A run's batch rows go with the run (ON DELETE CASCADE).
--
--  * totals            StreamingTotals as JSON: batches, rows, time per phase, falling-behind streaks, state and
--                      watermark figures over the whole run, also the batches no longer kept.
--  * num_batches, input_rows, last_batch_end_time
--                      copied out of totals for listing queries in plain SQL.
--  * kept_first_batch_id, kept_last_batch_id, batches_kept
--                      the window as last written. A batch never changes once reported, so the writer ships only
--                      batches newer than kept_last_batch_id and deletes those older than the new window's first.
--  * state_rows, state_memory_bytes, rows_dropped_by_watermark (batch)
--                      sums over the batch's stateful operators (-1 without any), for charts without parsing JSON.
CREATE TABLE streaming_query (
    app_pk              bigint  NOT NULL REFERENCES application ON DELETE CASCADE,
    run_id              text    NOT NULL,
    ord                 integer NOT NULL,
    query_id            text    NOT NULL,
    name                text,
    start_time          bigint  NOT NULL,
    end_time            bigint  NOT NULL,
    status              text    NOT NULL CHECK (status IN ('RUNNING', 'STOPPED', 'FAILED')),
    exception           text,
    error_class         text,
    trigger_kind        text,
    trigger_interval_ms bigint  NOT NULL,
    sink_description    text,
    last_progress_time  bigint  NOT NULL,
    num_batches         bigint  NOT NULL,
    input_rows          bigint  NOT NULL,
    last_batch_end_time bigint  NOT NULL,
    totals              jsonb   NOT NULL,
    kept_first_batch_id bigint,
    kept_last_batch_id  bigint,
    batches_kept        integer NOT NULL,
    PRIMARY KEY (app_pk, run_id)
);

CREATE INDEX streaming_query_by_query_id ON streaming_query (app_pk, query_id);

CREATE TABLE streaming_batch (
    app_pk                    bigint           NOT NULL,
    run_id                    text             NOT NULL,
    batch_id                  bigint           NOT NULL,
    start_time                bigint           NOT NULL,
    duration_ms               bigint           NOT NULL,
    num_input_rows            bigint           NOT NULL,
    input_rows_per_second     double precision NOT NULL,  -- -1 unknown (Spark's NaN)
    processed_rows_per_second double precision NOT NULL,
    num_output_rows           bigint           NOT NULL,  -- -1 when the sink does not count
    duration_parts            jsonb            NOT NULL,  -- Spark's durationMs: phase → ms
    watermark                 bigint           NOT NULL,  -- epoch ms; -1 when the query defines none
    event_time_max            bigint           NOT NULL,
    state_rows                bigint           NOT NULL,
    state_memory_bytes        bigint           NOT NULL,
    rows_dropped_by_watermark bigint           NOT NULL,
    state_operators           jsonb            NOT NULL,  -- StreamingProgress.StateOperator list
    sources                   jsonb            NOT NULL,  -- StreamingProgress.Source list (offsets summarised)
    PRIMARY KEY (app_pk, run_id, batch_id),
    FOREIGN KEY (app_pk, run_id) REFERENCES streaming_query ON DELETE CASCADE
);
