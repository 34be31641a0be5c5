-- Spark's own job and executor counts for the jobs and executors views and their REST-shaped API, each task's whole
-- error text, and what the paged task table sorts on. -1 = not recorded (rows stored before this version).

ALTER TABLE job
    ADD COLUMN num_active_tasks      integer NOT NULL DEFAULT -1,
    ADD COLUMN num_completed_indices integer NOT NULL DEFAULT -1,   -- distinct (stage, partition) that succeeded
    ADD COLUMN num_skipped_tasks     integer NOT NULL DEFAULT -1,
    ADD COLUMN num_active_stages     integer NOT NULL DEFAULT -1,
    ADD COLUMN num_completed_stages  integer NOT NULL DEFAULT -1,
    ADD COLUMN num_failed_stages     integer NOT NULL DEFAULT -1,
    ADD COLUMN killed_tasks_summary  jsonb   NOT NULL DEFAULT '{}', -- kill reason -> tasks
    ADD COLUMN job_tags              text[]  NOT NULL DEFAULT '{}';

ALTER TABLE executor
    ADD COLUMN host_port           text,                            -- its block manager's host:port
    ADD COLUMN added               boolean NOT NULL DEFAULT true,   -- an ExecutorAdded event announced it
    ADD COLUMN total_tasks         integer NOT NULL DEFAULT -1,     -- task starts while it was alive
    ADD COLUMN active_tasks        integer NOT NULL DEFAULT -1,
    ADD COLUMN max_on_heap_memory  bigint  NOT NULL DEFAULT -1,
    ADD COLUMN max_off_heap_memory bigint  NOT NULL DEFAULT -1;

ALTER TABLE stage_attempt
    ADD COLUMN kept_tasks integer;                                  -- task rows kept of it; NULL before this version

ALTER TABLE task
    ADD COLUMN error_detail         text,                           -- Spark's whole error text (stack trace)
    ADD COLUMN executor_run_time_ms bigint;                         -- NULL when Spark reported no metrics

UPDATE task SET executor_run_time_ms = COALESCE((metrics->>'executorRunTime')::bigint, 0) WHERE metrics IS NOT NULL;
UPDATE stage_attempt s SET kept_tasks = (SELECT count(*) FROM task t WHERE t.app_pk = s.app_pk
    AND t.stage_id = s.stage_id AND t.stage_attempt_id = s.attempt_id);

-- Spark's taskList?sortBy=runtime order within one stage attempt: executor run time, negated minus one for a task
-- that did not succeed, -1 without metrics (its TaskDataWrapper index), ties by task id. The task table's pages read
-- it in either direction without sorting the stage's rows; the columns the key is computed from are included so the
-- page's task ids come from the index alone.
CREATE INDEX task_run_time_idx ON task (app_pk, stage_id, stage_attempt_id,
    (CASE WHEN executor_run_time_ms IS NULL THEN -1 WHEN status = 'SUCCESS' THEN executor_run_time_ms
          ELSE -executor_run_time_ms - 1 END), task_id) INCLUDE (executor_run_time_ms, status);
