-- Task timeline (issue 7, item 1): the recorder now keeps every task of a stage attempt up to a per-stage cap
-- (past it the slowest half and a uniform sample), and the stage row says which.
--
--  * task_detail       ALL | SAMPLED | SLOWEST (StageSummary.TaskDetail). NULL = written before V4: the reader then
--                      derives it (every ended task kept → ALL, else SLOWEST, which is what older recorders kept).
--  * tasks_digest      64-bit digest of the stage's task rows as last written (SnapshotWriter): a later snapshot whose
--                      tasks of this stage have the same digest ships none of them again. NULL = unknown, rewrite.
--  * task_duration_ms, scheduler_delay_ms, getting_result_ms
--                      Σ over task ends with metrics (TaskTimeSums): with the totals' executorDeserializeTime,
--                      executorRunTime and resultSerializationTime, the app page's "where task time went" per
--                      stage without reading task rows. NULL = written before V4.
-- Adding nullable columns without a default is a catalog-only change: no table rewrite, whatever the row count.
ALTER TABLE stage_attempt
    ADD COLUMN task_detail        text CHECK (task_detail IN ('ALL', 'SAMPLED', 'SLOWEST')),
    ADD COLUMN tasks_digest       bigint,
    ADD COLUMN task_duration_ms   bigint,
    ADD COLUMN scheduler_delay_ms bigint,
    ADD COLUMN getting_result_ms  bigint;
