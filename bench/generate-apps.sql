-- Grows the applications SyntheticLoad wrote (app-00000000 … app-<base-1>) to :apps applications inside PostgreSQL,
-- as a fleet with retention holds them: one start every :spacing_ms milliseconds (8 640 = 10 000 a day, so a million
-- is 100 days), newest first by rank, and the details (tasks, stage statistics, stage attempts, SQL plans, settings)
-- only for the newest :detail_apps; older ones keep the rows the fleet's pages read (application, findings, jobs,
-- executors), as `prune` would leave them after cutting details at an age. Rank r starts at now - r·spacing; the base
-- applications become ranks 0 … base-1 (the newest app-<base-1> rank 0), copies get ids app-<r> for r ≥ base and copy
-- base application r % base. Rows are copied set-wise (generate_series), :batch applications per transaction; the
-- summary triggers (V27) add up each statement's rows once. Child rows keep their times (no page compares them across
-- applications). Rerunnable: it continues after the highest id present.
--   psql -v base=2000 -v apps=1000000 -v detail_apps=20000 -v spacing_ms=8640 -v batch=50000 -f bench/generate-apps.sql
\set ON_ERROR_STOP on
SELECT set_config('gen.base', :'base', false), set_config('gen.apps', :'apps', false),
       set_config('gen.detail', :'detail_apps', false), set_config('gen.spacing', :'spacing_ms', false),
       set_config('gen.batch', :'batch', false);
CREATE OR REPLACE PROCEDURE sparkscope_bench_generate(base int, apps int, detail int, spacing bigint, batch int)
LANGUAGE plpgsql AS $$
DECLARE
    now_ms bigint := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
    lo int;
    hi int;
    t text;
    cols text;
    app_cols text;
    light text[] := ARRAY['executor', 'job', 'finding'];
    -- parents before children (foreign keys)
    heavy text[] := ARRAY['configuration', 'stage_attempt', 'stage_statistics', 'task', 'sql_execution'];
BEGIN
    IF detail < base THEN
        RAISE EXCEPTION 'detail_apps (%) must be at least base (%): the base applications have their details', detail, base;
    END IF;
    -- the base applications take ranks 0 … base-1 (once: a rerun finds them re-timed already)
    IF NOT EXISTS (SELECT 1 FROM application WHERE app_id = format('app-%s', lpad(base::text, 8, '0'))) THEN
        UPDATE application a SET start_time = now_ms - r.rank * spacing,
               end_time = CASE WHEN a.end_time > 0 THEN now_ms - r.rank * spacing + (a.end_time - a.start_time)
                               ELSE a.end_time END,
               last_event_time = now_ms - r.rank * spacing + (a.last_event_time - a.start_time)
          FROM (SELECT app_pk, base - 1 - substring(app_id from 5)::int AS rank FROM application
                 WHERE app_id ~ '^app-[0-9]{8}$' AND substring(app_id from 5)::int < base) r
         WHERE a.app_pk = r.app_pk;
        COMMIT;
    END IF;
    SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) INTO app_cols
      FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'application'
       AND column_name NOT IN ('app_pk', 'app_id', 'start_time', 'end_time', 'last_event_time', 'completed_at',
                               'updated_at') AND is_generated = 'NEVER';
    SELECT coalesce(max(substring(app_id from 5)::int) + 1, base) INTO lo FROM application
     WHERE app_id ~ '^app-[0-9]{8}$';
    lo := greatest(lo, base);
    WHILE lo < apps LOOP
        hi := least(lo + batch, apps) - 1;
        CREATE TEMP TABLE gen_src ON COMMIT DROP AS
            SELECT substring(app_id from 5)::int AS k, app_pk FROM application
             WHERE app_id ~ '^app-[0-9]{8}$' AND substring(app_id from 5)::int < base;
        CREATE TEMP TABLE gen_map (rank int, old_pk bigint, new_pk bigint) ON COMMIT DROP;
        EXECUTE format('WITH ins AS (INSERT INTO application (app_id, start_time, end_time, last_event_time, %1$s)'
                || ' SELECT format(''app-%%s'', lpad(g::text, 8, ''0'')), %2$s - g * %3$s::bigint,'
                || ' CASE WHEN a.end_time > 0 THEN %2$s - g * %3$s::bigint + (a.end_time - a.start_time)'
                || ' ELSE a.end_time END, %2$s - g * %3$s::bigint + (a.last_event_time - a.start_time), %4$s'
                || ' FROM generate_series(%5$s, %6$s) g JOIN gen_src s ON s.k = g %% %7$s'
                || ' JOIN application a ON a.app_pk = s.app_pk RETURNING app_pk, app_id)'
                || ' INSERT INTO gen_map SELECT substring(i.app_id from 5)::int, s.app_pk, i.app_pk FROM ins i'
                || ' JOIN gen_src s ON s.k = substring(i.app_id from 5)::int %% %7$s',
                app_cols, now_ms, spacing, (SELECT string_agg('a.' || x, ', ') FROM regexp_split_to_table(app_cols, ', ') x),
                lo, hi, base);
        CREATE INDEX ON gen_map (old_pk);
        ANALYZE gen_map;
        FOREACH t IN ARRAY light || heavy LOOP
            IF t = ANY (heavy) AND lo >= detail THEN
                CONTINUE;
            END IF;
            SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) INTO cols
              FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = t
               AND column_name <> 'app_pk' AND is_generated = 'NEVER';
            EXECUTE format('INSERT INTO %I (app_pk, %s) SELECT m.new_pk, %s FROM %I x JOIN gen_map m'
                    || ' ON x.app_pk = m.old_pk%s', t, cols,
                    (SELECT string_agg('x.' || y, ', ') FROM regexp_split_to_table(cols, ', ') y), t,
                    CASE WHEN t = ANY (heavy) THEN format(' WHERE m.rank < %s', detail) ELSE '' END);
        END LOOP;
        RAISE NOTICE '% applications (% … % copied, details below rank %)', hi + 1, lo, hi, detail;
        COMMIT;
        lo := hi + 1;
    END LOOP;
END
$$;
CALL sparkscope_bench_generate(current_setting('gen.base')::int, current_setting('gen.apps')::int,
                               current_setting('gen.detail')::int, current_setting('gen.spacing')::bigint,
                               current_setting('gen.batch')::int);
DROP PROCEDURE sparkscope_bench_generate(int, int, int, bigint, int);
