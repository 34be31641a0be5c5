-- Summaries kept up to date on write, so the dashboard and the recurring-jobs list read a few hundred rows instead of
-- every application (a million in a fleet with three months of history).
--
-- Triggers keep them, in the transaction that writes the application or finding rows: the snapshot writer, imports,
-- prune (its cascade deletes) and any hand-written SQL all go through them, and nothing in Java can forget one.
-- They are statement-level (transition tables): a bulk insert or a prune of 100 000 applications adds up its deltas
-- once per statement, not once per row.
--
-- Counters are split into 16 shards (app_pk % 16) and only ever incremented: writers of different applications
-- mostly lock different rows, and a reader sums the shards. Every statement takes the rows in one order (totals,
-- health, jobs in key order; the findings' summary in a statement of its own, after the application's), and a
-- delete of applications adds up its own rows before its cascade reaches the findings, so a writer and a prune
-- never wait on each other in a cycle.

-- Σ over all applications (the dashboard's first line).
CREATE TABLE app_totals (
    shard     smallint PRIMARY KEY,
    apps      bigint NOT NULL,
    executors bigint NOT NULL,
    jobs      bigint NOT NULL,
    stages    bigint NOT NULL,
    tasks     bigint NOT NULL
);

-- Applications by the hour they started and their worst severity (the dashboard's last day / last week health).
-- hour = floor(start_time / 3 600 000). A window that starts inside an hour reads that hour's edge from application.
CREATE TABLE app_health_hour (
    hour   bigint   NOT NULL,
    shard  smallint NOT NULL,
    red    bigint   NOT NULL,
    yellow bigint   NOT NULL,
    green  bigint   NOT NULL,
    PRIMARY KEY (hour, shard)
);

-- Root-cause findings (caused_by IS NULL) by heuristic: the dashboard's findings ranked by what fixing them saves.
-- apps counts applications with at least one such finding; high counts HIGH findings (the heuristic shows HIGH when
-- any is).
CREATE TABLE finding_summary (
    heuristic text     NOT NULL,
    shard     smallint NOT NULL,
    apps      bigint   NOT NULL,
    findings  bigint   NOT NULL,
    high      bigint   NOT NULL,
    wall_ms   bigint   NOT NULL,
    task_ms   bigint   NOT NULL,
    PRIMARY KEY (heuristic, shard)
);

-- One row per job key (recurring jobs): its runs, first and last start, the newest run's name and user, and the
-- wall times of its newest COMPLETE runs, newest first (10: HistoryQuery.TREND_RUNS).
CREATE TABLE job_summary (
    job_key             text   PRIMARY KEY,
    runs                bigint NOT NULL,
    first_start         bigint,
    last_start          bigint,
    name                text,
    spark_user          text,
    recent_durations_ms bigint[] NOT NULL DEFAULT '{}'
);
CREATE INDEX job_summary_last_start_idx ON job_summary (last_start DESC, job_key);

-- A job's runs newest first with the tie broken by app_pk, read straight from the index (history page, trend).
CREATE INDEX application_job_key_order_idx ON application (job_key, start_time, app_pk) WHERE job_key IS NOT NULL;
DROP INDEX application_job_key_idx;

-- The dashboard's waste of the week (WasteQuery): its totals and its ranking read only these columns of the week's
-- applications (70 000 at 10 000 a day), so an index that carries them answers both without visiting the table.
CREATE INDEX application_start_waste_idx ON application (start_time)
    INCLUDE (app_pk, core_hours_wasted, gb_hours_wasted, core_hours_allocated, gb_hours_allocated);

-- Applies what one statement changed in application to the totals, the hourly health and the jobs.
CREATE FUNCTION sparkscope_application_summaries_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    -- the rows before (deleted or updated) and after (inserted or updated), as relations for the queries below;
    -- transition tables are seen only by this function's own statements, so they are not passed on
    olds text := CASE WHEN TG_OP = 'INSERT' THEN '(SELECT * FROM application WHERE false)' ELSE 'old_rows' END;
    news text := CASE WHEN TG_OP = 'DELETE' THEN '(SELECT * FROM application WHERE false)' ELSE 'new_rows' END;
    changed boolean := false;
    keys text[];
BEGIN
    IF TG_OP <> 'DELETE' THEN -- most statements of a rewrite change no row: nothing to add up
        EXECUTE 'SELECT EXISTS (SELECT 1 FROM new_rows)' INTO changed;
    END IF;
    IF TG_OP <> 'INSERT' AND NOT changed THEN
        EXECUTE 'SELECT EXISTS (SELECT 1 FROM old_rows)' INTO changed;
    END IF;
    IF NOT changed THEN
        RETURN NULL;
    END IF;
    EXECUTE format($q$
        INSERT INTO app_totals AS t (shard, apps, executors, jobs, stages, tasks)
        SELECT shard, sum(sign), sum(sign * num_executors), sum(sign * num_jobs), sum(sign * num_stages),
               sum(sign * num_tasks)
        FROM (SELECT (app_pk %% 16)::smallint AS shard, 1 AS sign, num_executors, num_jobs, num_stages, num_tasks
              FROM %2$s AS n
              UNION ALL
              SELECT (app_pk %% 16)::smallint, -1, num_executors, num_jobs, num_stages, num_tasks FROM %1$s AS o) d
        GROUP BY shard
        HAVING sum(sign) <> 0 OR sum(sign * num_executors) <> 0 OR sum(sign * num_jobs) <> 0
            OR sum(sign * num_stages) <> 0 OR sum(sign * num_tasks) <> 0
        ORDER BY shard
        ON CONFLICT (shard) DO UPDATE SET apps = t.apps + excluded.apps, executors = t.executors + excluded.executors,
            jobs = t.jobs + excluded.jobs, stages = t.stages + excluded.stages, tasks = t.tasks + excluded.tasks
        $q$, olds, news);

    EXECUTE format($q$
        INSERT INTO app_health_hour AS h (hour, shard, red, yellow, green)
        SELECT hour, shard, coalesce(sum(sign) FILTER (WHERE worst_severity = 'HIGH'), 0),
               coalesce(sum(sign) FILTER (WHERE worst_severity = 'LOW'), 0),
               coalesce(sum(sign) FILTER (WHERE worst_severity IS NULL), 0)
        FROM (SELECT floor(start_time / 3600000.0)::bigint AS hour, (app_pk %% 16)::smallint AS shard, 1 AS sign,
                     worst_severity FROM %2$s AS n
              UNION ALL
              SELECT floor(start_time / 3600000.0)::bigint, (app_pk %% 16)::smallint, -1, worst_severity
              FROM %1$s AS o) d
        GROUP BY hour, shard
        HAVING sum(sign) FILTER (WHERE worst_severity = 'HIGH') <> 0
            OR sum(sign) FILTER (WHERE worst_severity = 'LOW') <> 0
            OR sum(sign) FILTER (WHERE worst_severity IS NULL) <> 0
        ORDER BY hour, shard
        ON CONFLICT (hour, shard) DO UPDATE SET red = h.red + excluded.red, yellow = h.yellow + excluded.yellow,
            green = h.green + excluded.green
        $q$, olds, news);

    -- Jobs whose summary may change: a run added or removed, or a run whose start, name, user, duration or
    -- completeness changed (a running application is rewritten every few seconds; most rewrites touch no job).
    EXECUTE format($q$
        SELECT coalesce(array_agg(DISTINCT k ORDER BY k), '{}') FROM (
            SELECT unnest(ARRAY[o.job_key, n.job_key]) AS k
            FROM %1$s AS o FULL JOIN %2$s AS n ON n.app_pk = o.app_pk
            WHERE (o.job_key, o.start_time, o.name, o.spark_user, o.duration_ms, o.complete)
                  IS DISTINCT FROM (n.job_key, n.start_time, n.name, n.spark_user, n.duration_ms, n.complete)) c
        WHERE k IS NOT NULL
        $q$, olds, news) INTO keys;
    IF cardinality(keys) = 0 THEN
        RETURN NULL;
    END IF;
    -- Lock the jobs' rows (in key order: two writers never wait on each other in a cycle) while counting the runs,
    -- then read their newest runs in a statement of its own: it sees what a writer that held the lock committed.
    EXECUTE format($q$
        INSERT INTO job_summary AS j (job_key, runs)
        SELECT k, coalesce(sum(d.sign), 0)
        FROM unnest($1) k
             LEFT JOIN (SELECT job_key, 1 AS sign FROM %2$s AS n UNION ALL SELECT job_key, -1 FROM %1$s AS o) d ON d.job_key = k
        GROUP BY k ORDER BY k
        ON CONFLICT (job_key) DO UPDATE SET runs = j.runs + excluded.runs
        $q$, olds, news) USING keys;
    DELETE FROM job_summary WHERE job_key = ANY (keys) AND runs <= 0;
    PERFORM sparkscope_job_summary_refresh(keys);
    RETURN NULL;
END
$$;

-- Recomputes everything but the run count of these jobs from their newest runs (index reads, however many runs).
CREATE FUNCTION sparkscope_job_summary_refresh(keys text[]) RETURNS void LANGUAGE sql AS $$
    UPDATE job_summary j SET
        first_start = (SELECT a.start_time FROM application a WHERE a.job_key = j.job_key
                       ORDER BY a.start_time LIMIT 1),
        (last_start, name, spark_user) = (SELECT a.start_time, a.name, a.spark_user FROM application a
                                          WHERE a.job_key = j.job_key
                                          ORDER BY a.start_time DESC, a.app_pk DESC LIMIT 1),
        recent_durations_ms = ARRAY(SELECT a.duration_ms FROM application a WHERE a.job_key = j.job_key AND a.complete
                                    ORDER BY a.start_time DESC, a.app_pk DESC LIMIT 10)
    WHERE j.job_key = ANY (keys);
$$;

CREATE TRIGGER application_summaries_insert AFTER INSERT ON application
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sparkscope_application_summaries_trigger();
CREATE TRIGGER application_summaries_update AFTER UPDATE ON application
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sparkscope_application_summaries_trigger();
CREATE TRIGGER application_summaries_delete AFTER DELETE ON application
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sparkscope_application_summaries_trigger();

-- Applies what one statement changed in finding. An application counts for a heuristic while it has at least one
-- root finding of it: after the statement it has n (counted now), before it n - added + removed.
CREATE FUNCTION sparkscope_finding_summaries_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    -- the rows before (deleted or updated) and after (inserted or updated), as relations for the queries below;
    -- transition tables are seen only by this function's own statements, so they are not passed on
    olds text := CASE WHEN TG_OP = 'INSERT' THEN '(SELECT * FROM finding WHERE false)' ELSE 'old_rows' END;
    news text := CASE WHEN TG_OP = 'DELETE' THEN '(SELECT * FROM finding WHERE false)' ELSE 'new_rows' END;
    changed boolean := false;
BEGIN
    IF TG_OP <> 'DELETE' THEN -- most statements of a rewrite change no row: nothing to add up
        EXECUTE 'SELECT EXISTS (SELECT 1 FROM new_rows)' INTO changed;
    END IF;
    IF TG_OP <> 'INSERT' AND NOT changed THEN
        EXECUTE 'SELECT EXISTS (SELECT 1 FROM old_rows)' INTO changed;
    END IF;
    IF NOT changed THEN
        RETURN NULL;
    END IF;
    EXECUTE format($q$
        WITH d AS (
            SELECT app_pk, heuristic, 1 AS sign, severity, impact_wall_ms, impact_task_ms
            FROM %2$s AS n WHERE caused_by IS NULL
            UNION ALL
            SELECT app_pk, heuristic, -1, severity, impact_wall_ms, impact_task_ms
            FROM %1$s AS o WHERE caused_by IS NULL),
        pair AS (
            SELECT app_pk, heuristic, sum(sign) AS added, sum(sign) FILTER (WHERE severity = 'HIGH') AS high,
                   sum(sign * impact_wall_ms) AS wall, sum(sign * impact_task_ms) AS task
            FROM d GROUP BY app_pk, heuristic),
        counted AS (
            SELECT p.*, (SELECT count(*) FROM finding f WHERE f.app_pk = p.app_pk AND f.heuristic = p.heuristic
                                                         AND f.caused_by IS NULL) AS now_n
            FROM pair p)
        INSERT INTO finding_summary AS s (heuristic, shard, apps, findings, high, wall_ms, task_ms)
        SELECT heuristic, (app_pk %% 16)::smallint,
               sum((now_n > 0)::int - (now_n - added > 0)::int), sum(added), coalesce(sum(high), 0), sum(wall),
               sum(task)
        FROM counted
        GROUP BY heuristic, (app_pk %% 16)::smallint
        HAVING sum((now_n > 0)::int - (now_n - added > 0)::int) <> 0 OR sum(added) <> 0 OR sum(high) <> 0
            OR sum(wall) <> 0 OR sum(task) <> 0
        ORDER BY heuristic, 2
        ON CONFLICT (heuristic, shard) DO UPDATE SET apps = s.apps + excluded.apps,
            findings = s.findings + excluded.findings, high = s.high + excluded.high,
            wall_ms = s.wall_ms + excluded.wall_ms, task_ms = s.task_ms + excluded.task_ms
        $q$, olds, news);
    RETURN NULL;
END
$$;

CREATE TRIGGER finding_summaries_insert AFTER INSERT ON finding
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sparkscope_finding_summaries_trigger();
CREATE TRIGGER finding_summaries_update AFTER UPDATE ON finding
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sparkscope_finding_summaries_trigger();
CREATE TRIGGER finding_summaries_delete AFTER DELETE ON finding
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sparkscope_finding_summaries_trigger();

-- Recomputes every summary from the base tables: the backfill below, and a repair after rows were written with the
-- triggers disabled (a benchmark's bulk generation, see bench/db-scale.sh).
CREATE FUNCTION sparkscope_rebuild_summaries() RETURNS void LANGUAGE sql AS $$
    DELETE FROM app_totals;
    DELETE FROM app_health_hour;
    DELETE FROM finding_summary;
    DELETE FROM job_summary;

    -- every shard has its row from the start
    INSERT INTO app_totals (shard, apps, executors, jobs, stages, tasks)
    SELECT shard, coalesce(a.apps, 0), coalesce(a.executors, 0), coalesce(a.jobs, 0), coalesce(a.stages, 0),
           coalesce(a.tasks, 0)
    FROM generate_series(0, 15) shard
         LEFT JOIN (SELECT (app_pk % 16)::smallint AS s, count(*) AS apps, sum(num_executors) AS executors,
                           sum(num_jobs) AS jobs, sum(num_stages) AS stages, sum(num_tasks) AS tasks
                    FROM application GROUP BY 1) a ON a.s = shard;

    INSERT INTO app_health_hour (hour, shard, red, yellow, green)
    SELECT floor(start_time / 3600000.0)::bigint, (app_pk % 16)::smallint,
           count(*) FILTER (WHERE worst_severity = 'HIGH'), count(*) FILTER (WHERE worst_severity = 'LOW'),
           count(*) FILTER (WHERE worst_severity IS NULL)
    FROM application GROUP BY 1, 2;

    INSERT INTO finding_summary (heuristic, shard, apps, findings, high, wall_ms, task_ms)
    SELECT heuristic, (app_pk % 16)::smallint, count(DISTINCT app_pk), count(*),
           count(*) FILTER (WHERE severity = 'HIGH'), sum(impact_wall_ms), sum(impact_task_ms)
    FROM finding WHERE caused_by IS NULL GROUP BY 1, 2;

    INSERT INTO job_summary (job_key, runs)
    SELECT job_key, count(*) FROM application WHERE job_key IS NOT NULL GROUP BY job_key;
    SELECT sparkscope_job_summary_refresh(ARRAY(SELECT job_key FROM job_summary));
$$;

-- Backfill from what is stored (the triggers above see no row written before them).
SELECT sparkscope_rebuild_summaries();
