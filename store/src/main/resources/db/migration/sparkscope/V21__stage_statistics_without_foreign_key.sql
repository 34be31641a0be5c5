-- stage_statistics rows leave with their stage attempt through a trigger instead of a foreign key.
--
-- A driver running thousands of tiny jobs writes ~38 statistics rows per new stage every few seconds, and the
-- foreign key checked each of them against stage_attempt one by one: two thirds of the time of that COPY went into
-- those checks. The only writer of stage_statistics (the snapshot writer) always writes a stage's statistics after
-- its stage row, in the same transaction and under the application's lock, so the check never caught anything.
--
-- What the foreign key still did was ON DELETE CASCADE: statistics of a deleted stage attempt must go with it (a
-- rewrite that drops a stage, an application deleted by hand or by the pruner, whose stage rows go by their own
-- cascade from application). One statement-level trigger does that now, with a single join against the rows the
-- statement deleted rather than one lookup per deleted stage row. It also fires for the deletes the cascade from
-- application makes. TRUNCATE, which the foreign key refused without CASCADE, now empties the statistics too.

ALTER TABLE stage_statistics
    DROP CONSTRAINT IF EXISTS stage_statistics_app_pk_stage_id_stage_attempt_id_fkey;

CREATE FUNCTION sparkscope_stage_attempt_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM stage_statistics s
     USING deleted_stage d
     WHERE s.app_pk = d.app_pk AND s.stage_id = d.stage_id AND s.stage_attempt_id = d.attempt_id;
    RETURN NULL;
END
$$;

CREATE TRIGGER stage_attempt_deleted AFTER DELETE ON stage_attempt
    REFERENCING OLD TABLE AS deleted_stage
    FOR EACH STATEMENT EXECUTE FUNCTION sparkscope_stage_attempt_deleted();

CREATE FUNCTION sparkscope_stage_attempt_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE stage_statistics;
    RETURN NULL;
END
$$;

CREATE TRIGGER stage_attempt_truncated AFTER TRUNCATE ON stage_attempt
    FOR EACH STATEMENT EXECUTE FUNCTION sparkscope_stage_attempt_truncated();
