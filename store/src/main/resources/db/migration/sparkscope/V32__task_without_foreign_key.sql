-- Task rows leave with their stage attempt through the trigger that already removes stage statistics (V21), instead
-- of a foreign key.
--
-- Task rows are most of what a write sends: an import of a million-task log copies 109 000 kept task rows, and the
-- foreign key checked each of them against stage_attempt one by one, a quarter of that COPY's time in PostgreSQL
-- (0.9 of 3.5 s). The snapshot writer, the only writer of task rows, always writes a stage's task rows after its
-- stage row, in the same transaction and under the application's lock, so the check never caught anything.
--
-- What the foreign key still did was ON DELETE CASCADE: the task rows of a deleted stage attempt must go with it (a
-- rewrite that drops a stage, an application deleted by hand or by the pruner). The statement-level trigger on
-- stage_attempt now deletes them too, with one join against the deleted rows instead of one lookup per deleted
-- stage. TRUNCATE of stage_attempt empties the task table too, as it does the statistics.

DO $$
DECLARE
    fk text;
BEGIN
    -- the parent's constraint (its name depends on the schema's history); the partitions' copies go with it
    FOR fk IN SELECT conname FROM pg_constraint
               WHERE conrelid = 'task'::regclass AND contype = 'f' AND conparentid = 0 LOOP
        EXECUTE format('ALTER TABLE task DROP CONSTRAINT %I', fk);
    END LOOP;
END
$$;

CREATE OR REPLACE FUNCTION sparkscope_stage_attempt_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM stage_statistics s
     USING deleted_stage d
     WHERE s.app_pk = d.app_pk AND s.stage_id = d.stage_id AND s.stage_attempt_id = d.attempt_id;
    DELETE FROM task t
     USING deleted_stage d
     WHERE t.app_pk = d.app_pk AND t.stage_id = d.stage_id AND t.stage_attempt_id = d.attempt_id;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION sparkscope_stage_attempt_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE stage_statistics, task;
    RETURN NULL;
END
$$;
