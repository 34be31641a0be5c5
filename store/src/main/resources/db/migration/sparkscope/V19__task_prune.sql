-- `sparkscope prune --keep-findings` removes an old application's task rows and keeps everything else (stages,
-- their statistics, jobs, executors, findings, the search row). One row here per application pruned that way, so
-- that `reanalyze` leaves its findings alone: they were computed from the task rows that are gone, and the
-- heuristics run again without them would lose their evidence. The row goes with its application.
CREATE TABLE task_prune (
    app_pk          bigint      PRIMARY KEY REFERENCES application ON DELETE CASCADE,
    task_rows       bigint      NOT NULL,          -- task rows removed (all prune runs of this application)
    pruned_at       timestamptz NOT NULL DEFAULT now()
);
