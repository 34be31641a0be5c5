-- The search page's costliest reads, made cheap for PostgreSQL: three columns of the application row.
--
-- Heuristic filter: the heuristics of an application's findings kept on its row (written with num_findings and the
-- banners), GIN-indexed. The filter was a semi-join probing finding's heuristic index once per application read (the
-- page walks the start-time index, its capped count up to a thousand matches); testing the row's own array costs
-- half as much, and a rare heuristic is found through the index.
ALTER TABLE application ADD COLUMN heuristics text[] NOT NULL DEFAULT '{}';
UPDATE application a
SET heuristics = h.heuristics
FROM (SELECT app_pk, array_agg(DISTINCT heuristic ORDER BY heuristic) AS heuristics FROM finding GROUP BY app_pk) h
WHERE h.app_pk = a.app_pk;

-- Name filter: `name ILIKE '%x%'` folds the case of every name it tests, and the page's capped count tests every
-- application whose name does not match (10 000 applications: 5–6 ms per count). The lower-cased name is kept in a
-- generated column, so the search tests `name_lower LIKE lower(?)`, which is what ILIKE does (PostgreSQL's ILIKE
-- lower-cases both sides), at a quarter of the cost; a narrow btree lets the count read it index-only.
--
-- Banners: the page sends 50 of them; jsonb has to be turned back into text for every row sent (half the cost of the
-- page's select), while nothing queries inside them. Kept as the JSON text the writer made.
--
-- One ALTER TABLE, so the table is rewritten once, after the UPDATE above: the rewrite also drops the row versions
-- that the UPDATE left behind (it had doubled the table, and the counts read it).
ALTER TABLE application
    ADD COLUMN name_lower text GENERATED ALWAYS AS (lower(name)) STORED,
    ALTER COLUMN banners TYPE text USING banners::text;

CREATE INDEX application_heuristics_idx ON application USING gin (heuristics);
CREATE INDEX application_name_lower_start_idx ON application (name_lower, start_time);
-- The trigram index moves to the lower-cased name (a selective pattern, one job's full name, stays indexed at any
-- size); where pg_trgm could not be created (V2) the btree above is all there is.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        EXECUTE 'CREATE INDEX application_name_lower_trgm_idx ON application USING gin (name_lower gin_trgm_ops)';
    END IF;
END
$$;
DROP INDEX IF EXISTS application_name_trgm_idx;
DROP INDEX IF EXISTS application_name_lower_idx;

-- The planner's statistics for the new columns.
ANALYZE application;
