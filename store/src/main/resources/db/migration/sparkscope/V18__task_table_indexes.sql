-- The task table's pages within one stage attempt. Sorted by duration (descending, ties by task id) the page's task
-- ids come from this index alone instead of reading the application's slowest tasks of every stage and sorting
-- them; a status filter (a stage's few failed tasks among 100 000) finds its rows without walking every task id.
CREATE INDEX task_stage_duration_idx ON task (app_pk, stage_id, stage_attempt_id, duration_ms, task_id);
CREATE INDEX task_stage_status_idx ON task (app_pk, stage_id, stage_attempt_id, status, task_id);
