-- The task table's index on (app_pk, duration_ms DESC) served a list of an application's slowest tasks across all
-- its stages. No page reads tasks that way any more: every task list is one stage attempt's, sorted by the
-- per-stage indexes (task_stage_duration_idx and the others), and an application's tasks are read in key order.
-- Each stored task still paid for the index: about a tenth of what PostgreSQL spends storing a task row, and its
-- bytes on disk. Dropping the partitioned index drops it on every partition.
DROP INDEX IF EXISTS task_duration_idx;
