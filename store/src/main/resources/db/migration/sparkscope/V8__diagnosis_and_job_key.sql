-- What the diagnosis needs to survive a round trip through the store, so search, the application page, the API and
-- reanalyze see the findings as the heuristics made them: each finding's estimated saving (wall and task time, and
-- how it was estimated), the finding it is a knock-on of, and its setting advice as data
-- ([{key, currentValue, currentSource, recommendedValue, reasons}, …]). Rows stored before have no estimate (0, '').
ALTER TABLE finding
    ADD COLUMN impact_wall_ms bigint NOT NULL DEFAULT 0,
    ADD COLUMN impact_task_ms bigint NOT NULL DEFAULT 0,
    ADD COLUMN impact_basis   text   NOT NULL DEFAULT '',
    ADD COLUMN caused_by      text,
    ADD COLUMN advice         jsonb;

-- The counts that say what Spark's task-end counts hold (task ids ended once, speculative copies, repeated task
-- ends, tasks whose launch or finish time is unknown). NULL for stages stored before: the model derives the first
-- from Spark's counts and reads the others as 0.
ALTER TABLE stage_attempt
    ADD COLUMN num_distinct_ended_tasks     integer,
    ADD COLUMN num_speculative_tasks        integer,
    ADD COLUMN num_duplicate_task_ends      integer,
    ADD COLUMN num_tasks_with_unknown_times integer;

-- Runs of one job, for history, Regression and prediction: by default name | user | main class or script | master
-- kind, or the application's spark.sparkscope.jobKey; NULL for interactive sessions (shells, notebooks), which are
-- compared with nothing. Applications stored before get theirs when `sparkscope reanalyze` rewrites them.
ALTER TABLE application ADD COLUMN job_key text;
CREATE INDEX application_job_key_idx ON application (job_key, start_time) WHERE job_key IS NOT NULL;
