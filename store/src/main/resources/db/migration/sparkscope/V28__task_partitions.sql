-- Task rows are nine in ten of the database's bytes, and `prune` used to delete them row by row. From here the task
-- table is partitioned by the month its application started, so that retention drops a whole month of task rows at
-- once (DROP TABLE frees the files at once: no dead rows left for VACUUM).
--
-- The partition key is app_pk itself, because every reader and writer already names app_pk: each query of one
-- application reads exactly one partition, and the primary key and every upsert stay as they were. For that, app_pk
-- now says the month: a new application gets
--     app_pk = (months from January 1970 to its start, UTC) × 2^32 + (the identity sequence's next value)
-- (its start by Spark's clock; the database's clock when the start is not known yet), so month m's applications are
-- exactly the app_pk range [m × 2^32, (m + 1) × 2^32). A late import of an old log lands in its own month too.
--
-- Partitions:
--  * task_before   every row stored before this version (app_pk < 2^32: the sequence's values), kept in place;
--  * task_YYYY_MM  one per month, created ahead by the writers and by prune (sparkscope_task_partition below);
--  * task_default  whatever arrives for a month with no partition yet, so that no write ever fails; creating the
--                  month's partition later moves those rows into it.

CREATE FUNCTION sparkscope_month_of(ms bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
    SELECT ((extract(year FROM d) - 1970) * 12 + extract(month FROM d) - 1)::bigint
      FROM (SELECT to_timestamp(ms / 1000.0) AT TIME ZONE 'UTC' AS d) x
$$;

-- The month an application's rows belong to: its start, or now when the start is not known (-1 or 0).
CREATE FUNCTION sparkscope_application_pk() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.app_pk := (sparkscope_month_of(CASE WHEN NEW.start_time > 0 THEN NEW.start_time
                                            ELSE (extract(epoch FROM now()) * 1000)::bigint END) << 32)
                  -- the identity value the insert already drew (taking another would use up two per application)
                  + NEW.app_pk % 4294967296;
    RETURN NEW;
END
$$;

CREATE TRIGGER application_pk_by_month BEFORE INSERT ON application
    FOR EACH ROW EXECUTE FUNCTION sparkscope_application_pk();

-- The task rows stored so far become the first partition as they are (no copy: attaching only checks the range).
ALTER TABLE task RENAME TO task_before;
ALTER TABLE task_before RENAME CONSTRAINT task_pkey TO task_before_pkey;
ALTER INDEX task_duration_idx RENAME TO task_before_duration_idx;
ALTER INDEX task_executor_idx RENAME TO task_before_executor_idx;
ALTER INDEX task_run_time_idx RENAME TO task_before_run_time_idx;
ALTER INDEX task_stage_duration_idx RENAME TO task_before_stage_duration_idx;
ALTER INDEX task_stage_status_idx RENAME TO task_before_stage_status_idx;

-- The same columns, in the same order (LIKE), so the old table can be attached as a partition.
CREATE TABLE task (
    LIKE task_before INCLUDING DEFAULTS,
    PRIMARY KEY (app_pk, stage_id, stage_attempt_id, task_id),
    FOREIGN KEY (app_pk, stage_id, stage_attempt_id)
        REFERENCES stage_attempt (app_pk, stage_id, attempt_id) ON DELETE CASCADE
) PARTITION BY RANGE (app_pk);

-- The same indexes as before (V1, V14, V18), now one per partition.
CREATE INDEX task_duration_idx ON task (app_pk, duration_ms DESC);
CREATE INDEX task_executor_idx ON task (app_pk, executor_id);
CREATE INDEX task_run_time_idx ON task (app_pk, stage_id, stage_attempt_id,
    (CASE WHEN executor_run_time_ms IS NULL THEN -1 WHEN status = 'SUCCESS' THEN executor_run_time_ms
          ELSE -executor_run_time_ms - 1 END), task_id) INCLUDE (executor_run_time_ms, status);
CREATE INDEX task_stage_duration_idx ON task (app_pk, stage_id, stage_attempt_id, duration_ms, task_id);
CREATE INDEX task_stage_status_idx ON task (app_pk, stage_id, stage_attempt_id, status, task_id);

-- Its indexes and foreign key match the parent's: they become the partition's, nothing is rebuilt.
ALTER TABLE task ATTACH PARTITION task_before FOR VALUES FROM (MINVALUE) TO (4294967296);
CREATE TABLE task_default PARTITION OF task DEFAULT;

-- The partition of month m (months from January 1970), created when missing, and its name. Rows that reached the
-- default partition meanwhile move into it. Creators of one month take turns; a month that exists costs one
-- catalog lookup. Month 0 and earlier are task_before.
CREATE FUNCTION sparkscope_task_partition(m bigint) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    part text := CASE WHEN m < 1 THEN 'task_before'
                      ELSE format('task_%s_%s', 1970 + m / 12, lpad((m % 12 + 1)::text, 2, '0')) END;
BEGIN
    IF m < 1 OR to_regclass(part) IS NOT NULL THEN
        RETURN part;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('sparkscope task partition'), m::integer);
    IF to_regclass(part) IS NOT NULL THEN
        RETURN part;
    END IF;
    -- The lookup above can miss a table another session created a moment ago (taking an advisory lock does not
    -- refresh this session's catalogue cache), so a table that turns out to exist is the other creator's: done.
    BEGIN
        EXECUTE format('CREATE TABLE %I (LIKE task INCLUDING DEFAULTS)', part);
    EXCEPTION WHEN duplicate_table THEN
        RETURN part;
    END;
    EXECUTE format('WITH moved AS (DELETE FROM task_default WHERE app_pk >= %s AND app_pk < %s RETURNING *)'
                   || ' INSERT INTO %I SELECT * FROM moved', m << 32, (m + 1) << 32, part);
    EXECUTE format('ALTER TABLE task ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)',
                   part, m << 32, (m + 1) << 32);
    RETURN part;
END
$$;

-- This month's and next month's partitions from the start.
SELECT sparkscope_task_partition(sparkscope_month_of((extract(epoch FROM now()) * 1000)::bigint));
SELECT sparkscope_task_partition(sparkscope_month_of((extract(epoch FROM now()) * 1000)::bigint) + 1);
