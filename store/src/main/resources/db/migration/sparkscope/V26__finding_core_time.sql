-- The idle executor core time a finding's fix would free without shortening the run (e.g. executors held while
-- nothing runs, which dynamic allocation would give back to a shared cluster), beside its wall and task time saving.
-- Rows stored before have none (0) until reanalyzed.
ALTER TABLE finding
    ADD COLUMN impact_core_ms bigint NOT NULL DEFAULT 0;
