-- Creating a month's task partition, again: creators now take turns.
--
-- Before, two writers creating the partitions of two different months at once could deadlock. Each first moved its
-- month's rows out of task_default (a lock on task_default), then attached its table (a lock on task, then an
-- exclusive one on task_default). The first to attach held task and waited for task_default; the second held
-- task_default and waited for task. An archive import's tasks, writing applications of many months at once, met it.
--
-- Now a creator locks the parent table first, in a mode that only other creators (and schema changes) wait for:
-- writers go on writing, and creators run one after the other. The rest is unchanged.
CREATE OR REPLACE FUNCTION sparkscope_task_partition(m bigint) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    part text := CASE WHEN m < 1 THEN 'task_before'
                      ELSE format('task_%s_%s', 1970 + m / 12, lpad((m % 12 + 1)::text, 2, '0')) END;
BEGIN
    IF m < 1 OR to_regclass(part) IS NOT NULL THEN
        RETURN part;
    END IF;
    LOCK TABLE task IN SHARE UPDATE EXCLUSIVE MODE;
    -- Taking the lock brought this session's catalogue up to date: a table another creator made meanwhile shows.
    IF to_regclass(part) IS NOT NULL THEN
        RETURN part;
    END IF;
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
