-- The task table's index on (app_pk, duration_ms DESC) served a list of an application's slowest tasks across all
-- its stages. No page reads tasks that way any more: every task list is one stage attempt's, sorted by the
-- per-stage indexes (task_stage_duration_idx and the others), and an application's tasks are read in key order.
-- Each stored task still paid for the index: a little CPU (too little to measure in one import's COPY) and about
-- 30 bytes on disk. Dropping the partitioned index drops it on every partition.
DROP INDEX IF EXISTS task_duration_idx;
