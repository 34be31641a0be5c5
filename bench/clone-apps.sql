-- Copies the applications SyntheticLoad wrote (app-00000000 … app-<base-1>) :copies more times, inside PostgreSQL:
-- copy c gets the ids base·c + i and starts, ends and last events c·base·5 minutes earlier (SyntheticLoad starts one
-- application every 5 minutes), so the database holds (copies+1)·base applications, one every 5 minutes, with the
-- same names, users, findings and row shapes. Child rows are copied as they are (their times are not shifted: no page
-- compares them across applications). One transaction per copy.
--   psql -v base=2000 -v copies=49 -f bench/clone-apps.sql
-- -v step=<ms> spaces the copies' starts by that much instead of 5 minutes per application.
\set ON_ERROR_STOP on
\if :{?step}
\else
\set step 300000
\endif
SELECT set_config('clone.base', :'base', false), set_config('clone.copies', :'copies', false);
CREATE OR REPLACE PROCEDURE sparkscope_bench_clone(base int, copies int, step bigint) LANGUAGE plpgsql AS $$
DECLARE
    c int;
    t text;
    cols text;
    -- parents before children (foreign keys); tables SyntheticLoad leaves empty cost nothing
    tables text[] := ARRAY['configuration', 'executor', 'job', 'stage_attempt', 'stage_statistics', 'task',
                           'sql_execution', 'finding'];
BEGIN
    -- the task partitions of the months the copies start in, as the writers create them ahead of their rows
    IF to_regproc('sparkscope_task_partition') IS NOT NULL THEN
        PERFORM sparkscope_task_partition(m) FROM generate_series(
            (SELECT sparkscope_month_of(min(start_time) - base::bigint * copies * step) FROM application),
            (SELECT sparkscope_month_of(max(start_time)) FROM application)) m;
    END IF;
    FOR c IN 1..copies LOOP
        IF EXISTS (SELECT 1 FROM application WHERE app_id = format('app-%s', lpad((base * c)::text, 8, '0'))) THEN
            CONTINUE; -- copied by an earlier run
        END IF;
        SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) INTO cols
          FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'application'
           AND column_name NOT IN ('app_pk', 'app_id', 'start_time', 'end_time', 'last_event_time', 'completed_at',
                                   'updated_at') AND is_generated = 'NEVER';
        CREATE TEMP TABLE clone_map (old_pk bigint PRIMARY KEY, new_pk bigint) ON COMMIT DROP;
        EXECUTE format('WITH src AS (SELECT app_pk, app_id FROM application WHERE app_id ~ ''^app-[0-9]{8}$'''
                || ' AND substring(app_id from 5)::int < %s),'
                || ' ins AS (INSERT INTO application (app_id, start_time, end_time, last_event_time, %s)'
                || ' SELECT format(''app-%%s'', lpad((substring(a.app_id from 5)::int + %s)::text, 8, ''0'')),'
                || ' a.start_time - %s, CASE WHEN a.end_time > 0 THEN a.end_time - %s ELSE a.end_time END,'
                || ' a.last_event_time - %s, %s FROM application a JOIN src USING (app_pk) RETURNING app_pk, app_id)'
                || ' INSERT INTO clone_map SELECT s.app_pk, i.app_pk FROM ins i JOIN src s'
                || ' ON substring(s.app_id from 5)::int + %s = substring(i.app_id from 5)::int',
                base, cols, base * c, base::bigint * c * step, base::bigint * c * step, base::bigint * c * step,
                (SELECT string_agg('a.' || x, ', ') FROM regexp_split_to_table(cols, ', ') x), base * c);
        FOREACH t IN ARRAY tables LOOP
            SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) INTO cols
              FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = t
               AND column_name <> 'app_pk' AND is_generated = 'NEVER';
            EXECUTE format('INSERT INTO %I (app_pk, %s) SELECT m.new_pk, %s FROM %I x JOIN clone_map m'
                    || ' ON x.app_pk = m.old_pk', t, cols,
                    (SELECT string_agg('x.' || y, ', ') FROM regexp_split_to_table(cols, ', ') y), t);
        END LOOP;
        RAISE NOTICE 'copy % of %: % applications', c, copies, (SELECT count(*) FROM clone_map);
        COMMIT;
    END LOOP;
END
$$;
CALL sparkscope_bench_clone(current_setting('clone.base')::int, current_setting('clone.copies')::int, :step);
DROP PROCEDURE sparkscope_bench_clone(int, int, bigint);
