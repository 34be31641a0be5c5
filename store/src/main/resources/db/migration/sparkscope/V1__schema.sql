-- Sparkscope schema, version 1: the thesis entities (application, configuration, executor, job, stage attempt,
-- stage statistics, task, SQL execution, finding) with their natural keys (DESIGN.md §4).
--
-- Conventions
--  * Times are epoch milliseconds (bigint) exactly as Spark reports them, with Spark's sentinels kept
--    (-1 = not yet / unknown), so a snapshot read back equals the one written.
--  * application has a surrogate app_pk (8 bytes) that child tables reference instead of repeating the two text
--    columns of its natural key in every row and index (1 000 000 task rows). The natural key stays UNIQUE and is
--    what every upsert conflicts on; each child's primary key is (app_pk, its natural key within the app).
--  * Columns the UI sorts or filters on are real columns; complete detail (Spark's StageData totals, task metrics,
--    plan trees) is jsonb.
--  * ON DELETE CASCADE everywhere: deleting an application removes all of it.

CREATE TABLE application (
    app_pk                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    app_id                 text    NOT NULL,
    -- '' when Spark gave no attempt id (local mode, standalone): NOT NULL so the unique key works.
    attempt_id             text    NOT NULL DEFAULT '',
    name                   text,
    spark_user             text,
    spark_version          text,
    start_time             bigint  NOT NULL,
    end_time               bigint  NOT NULL,          -- -1 while running
    last_event_time        bigint  NOT NULL,
    duration_ms            bigint  NOT NULL,
    status                 text    NOT NULL CHECK (status IN ('RUNNING', 'COMPLETE')),
    complete               boolean NOT NULL,
    num_jobs               integer NOT NULL,
    num_failed_jobs        integer NOT NULL,
    num_stages             integer NOT NULL,          -- stage attempts
    num_failed_stages      integer NOT NULL,
    num_tasks              bigint  NOT NULL,
    num_failed_tasks       bigint  NOT NULL,
    num_executors          integer NOT NULL,
    total_task_time_ms     bigint  NOT NULL,          -- Σ task durations (Spark's executor "Task Time")
    total_run_time_ms      bigint  NOT NULL,          -- Σ executorRunTime
    total_cpu_time_ns      bigint  NOT NULL,          -- Σ executorCpuTime (nanoseconds, as Spark)
    total_gc_time_ms       bigint  NOT NULL,
    memory_bytes_spilled   bigint  NOT NULL,
    disk_bytes_spilled     bigint  NOT NULL,
    shuffle_read_bytes     bigint  NOT NULL,
    shuffle_write_bytes    bigint  NOT NULL,
    input_bytes            bigint  NOT NULL,
    output_bytes           bigint  NOT NULL,
    driver_gc_time_ms      bigint  NOT NULL,
    driver_max_memory      bigint  NOT NULL,
    event_count            bigint  NOT NULL,          -- also orders snapshots of one app (stale writes are skipped)
    unknown_event_types    jsonb   NOT NULL DEFAULT '{}',
    num_findings           integer NOT NULL DEFAULT 0,
    worst_severity         text    CHECK (worst_severity IN ('LOW', 'HIGH')),  -- NULL = green
    updated_at             timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT application_natural_key UNIQUE (app_id, attempt_id)
);
-- Search page: newest first, ranges on start/end, sort by duration, filters on user/status/severity.
CREATE INDEX application_start_idx    ON application (start_time DESC);
CREATE INDEX application_end_idx      ON application (end_time DESC);
CREATE INDEX application_duration_idx ON application (duration_ms DESC);
CREATE INDEX application_user_idx     ON application (spark_user, start_time DESC);
CREATE INDEX application_status_idx   ON application (status, start_time DESC);
CREATE INDEX application_severity_idx ON application (worst_severity, start_time DESC);
-- History page: all runs of one application name over time.
CREATE INDEX application_name_idx     ON application (name, start_time);

CREATE TABLE configuration (
    app_pk  bigint NOT NULL REFERENCES application ON DELETE CASCADE,
    scope   text   NOT NULL CHECK (scope IN ('spark', 'jvm', 'system', 'hadoop')),
    key     text   NOT NULL,
    value   text,
    PRIMARY KEY (app_pk, scope, key)
);
-- Compare/search by a config value across runs (e.g. every app with spark.serializer = Java).
CREATE INDEX configuration_key_idx ON configuration (scope, key);

CREATE TABLE executor (
    app_pk               bigint  NOT NULL REFERENCES application ON DELETE CASCADE,
    executor_id          text    NOT NULL,
    ord                  integer NOT NULL,           -- position in the snapshot, so a read returns the same list
    host                 text,
    total_cores          integer NOT NULL,
    add_time             bigint  NOT NULL,
    remove_time          bigint  NOT NULL,
    remove_reason        text,
    max_memory           bigint  NOT NULL,
    completed_tasks      integer NOT NULL,
    failed_tasks         integer NOT NULL,
    killed_tasks         integer NOT NULL,
    total_duration_ms    bigint  NOT NULL,
    total_run_time_ms    bigint  NOT NULL,
    total_cpu_time_ns    bigint  NOT NULL,
    total_gc_time_ms     bigint  NOT NULL,
    input_bytes          bigint  NOT NULL,
    shuffle_read_bytes   bigint  NOT NULL,
    shuffle_write_bytes  bigint  NOT NULL,
    memory_bytes_spilled bigint  NOT NULL,
    disk_bytes_spilled   bigint  NOT NULL,
    peak_metrics         jsonb   NOT NULL DEFAULT '{}',
    PRIMARY KEY (app_pk, executor_id)
);

CREATE TABLE job (
    app_pk              bigint    NOT NULL REFERENCES application ON DELETE CASCADE,
    job_id              integer   NOT NULL,
    ord                 integer   NOT NULL,
    name                text,
    description         text,
    job_group           text,
    submission_time     bigint    NOT NULL,
    completion_time     bigint    NOT NULL,
    duration_ms         bigint    NOT NULL,
    status              text      NOT NULL,
    failure_reason      text,
    stage_ids           integer[] NOT NULL,
    sql_execution_id    bigint    NOT NULL,
    num_tasks           integer   NOT NULL,
    num_completed_tasks integer   NOT NULL,
    num_failed_tasks    integer   NOT NULL,
    num_killed_tasks    integer   NOT NULL,
    num_skipped_stages  integer   NOT NULL,
    PRIMARY KEY (app_pk, job_id)
);

CREATE TABLE stage_attempt (
    app_pk                   bigint    NOT NULL REFERENCES application ON DELETE CASCADE,
    stage_id                 integer   NOT NULL,
    attempt_id               integer   NOT NULL,
    ord                      integer   NOT NULL,
    name                     text,
    details                  text,
    status                   text      NOT NULL,
    num_tasks                integer   NOT NULL,
    num_active_tasks         integer   NOT NULL,
    num_complete_tasks       integer   NOT NULL,
    num_failed_tasks         integer   NOT NULL,
    num_killed_tasks         integer   NOT NULL,
    num_completed_indices    integer   NOT NULL,
    submission_time          bigint    NOT NULL,
    completion_time          bigint    NOT NULL,
    first_task_launched_time bigint    NOT NULL,
    last_task_finished_time  bigint    NOT NULL,
    duration_ms              bigint    NOT NULL,
    failure_reason           text,
    parent_ids               integer[] NOT NULL,
    job_ids                  integer[] NOT NULL,
    -- Totals the stage table sorts on, copied out of totals for indexing and plain SQL.
    executor_run_time_ms     bigint    NOT NULL,
    executor_cpu_time_ns     bigint    NOT NULL,
    jvm_gc_time_ms           bigint    NOT NULL,
    memory_bytes_spilled     bigint    NOT NULL,
    disk_bytes_spilled       bigint    NOT NULL,
    shuffle_read_bytes       bigint    NOT NULL,
    shuffle_write_bytes      bigint    NOT NULL,
    input_bytes              bigint    NOT NULL,
    output_bytes             bigint    NOT NULL,
    -- Every StageTotals sum under Spark's REST StageData field names (the source of truth for the model).
    totals                   jsonb     NOT NULL,
    end_reasons              jsonb     NOT NULL DEFAULT '{}',
    -- Task-metric distribution header; per-metric values live in stage_statistics. NULL when no task succeeded.
    summary_task_count       bigint,
    summary_quantiles        double precision[],
    PRIMARY KEY (app_pk, stage_id, attempt_id)
);

-- One row per (stage attempt, TaskMetricDistributions metric path), values aligned with
-- stage_attempt.summary_quantiles: e.g. executorRunTime → {min, p5, p25, median, p75, p95, max}.
CREATE TABLE stage_statistics (
    app_pk           bigint             NOT NULL,
    stage_id         integer            NOT NULL,
    stage_attempt_id integer            NOT NULL,
    metric           text               NOT NULL,   -- Spark's JSON path, e.g. shuffleReadMetrics.readBytes
    vals             double precision[] NOT NULL,
    PRIMARY KEY (app_pk, stage_id, stage_attempt_id, metric),
    FOREIGN KEY (app_pk, stage_id, stage_attempt_id)
        REFERENCES stage_attempt (app_pk, stage_id, attempt_id) ON DELETE CASCADE
);

-- Kept tasks only: per stage attempt the N slowest and every failed one (DESIGN.md §4).
CREATE TABLE task (
    app_pk              bigint  NOT NULL,
    stage_id            integer NOT NULL,
    stage_attempt_id    integer NOT NULL,
    task_id             bigint  NOT NULL,
    ord                 integer NOT NULL,           -- position in StageSummary.keptTasks
    task_index          integer NOT NULL,
    attempt             integer NOT NULL,
    partition_id        integer NOT NULL,
    executor_id         text,
    host                text,
    locality            text,
    speculative         boolean NOT NULL,
    launch_time         bigint  NOT NULL,
    finish_time         bigint  NOT NULL,
    getting_result_time bigint  NOT NULL,
    duration_ms         bigint  NOT NULL,
    status              text,
    end_reason          text,
    error_message       text,
    -- TaskMetric sums by Spark's field names; zero metrics are omitted (absent = 0). NULL = Spark reported none.
    metrics             jsonb,
    PRIMARY KEY (app_pk, stage_id, stage_attempt_id, task_id),
    FOREIGN KEY (app_pk, stage_id, stage_attempt_id)
        REFERENCES stage_attempt (app_pk, stage_id, attempt_id) ON DELETE CASCADE
);
-- "Slowest tasks of this app" and per-executor drill-down without scanning a million rows.
CREATE INDEX task_duration_idx ON task (app_pk, duration_ms DESC);
CREATE INDEX task_executor_idx ON task (app_pk, executor_id);

CREATE TABLE sql_execution (
    app_pk                    bigint    NOT NULL REFERENCES application ON DELETE CASCADE,
    execution_id              bigint    NOT NULL,
    ord                       integer   NOT NULL,
    description               text,
    start_time                bigint    NOT NULL,
    end_time                  bigint    NOT NULL,
    error_message             text,
    physical_plan_description text,
    plan                      jsonb,                -- SparkEvent.PlanNode tree; NULL when the source had none
    job_ids                   integer[] NOT NULL,
    metric_values             jsonb     NOT NULL DEFAULT '{}',  -- accumulator id → value
    PRIMARY KEY (app_pk, execution_id)
);

CREATE TABLE finding (
    app_pk         bigint  NOT NULL REFERENCES application ON DELETE CASCADE,
    finding_id     text    NOT NULL,
    ord            integer NOT NULL,
    heuristic      text    NOT NULL,
    severity       text    NOT NULL CHECK (severity IN ('LOW', 'HIGH')),
    title          text,
    message        text,
    recommendation text,
    stage_ids      text[]  NOT NULL,
    executor_ids   text[]  NOT NULL,
    config_keys    text[]  NOT NULL,
    details        jsonb,
    PRIMARY KEY (app_pk, finding_id)
);
-- Search filters "has a finding of heuristic X / severity Y" as EXISTS probes, and the dashboard's most frequent findings.
CREATE INDEX finding_heuristic_idx ON finding (heuristic, app_pk);
CREATE INDEX finding_severity_idx  ON finding (severity, app_pk);
