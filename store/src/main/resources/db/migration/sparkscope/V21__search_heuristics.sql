-- The search page's heuristic filter: the heuristics of an application's findings kept on its row (written with
-- num_findings and the banners), with a GIN index. The filter was a semi-join probing finding's heuristic index once
-- per application read (the page walks the start-time index; its capped count up to a thousand matches); testing the
-- row's own array costs half as much, and a rare heuristic is found through the index.
ALTER TABLE application ADD COLUMN heuristics text[] NOT NULL DEFAULT '{}';
UPDATE application a
SET heuristics = h.heuristics
FROM (SELECT app_pk, array_agg(DISTINCT heuristic ORDER BY heuristic) AS heuristics FROM finding GROUP BY app_pk) h
WHERE h.app_pk = a.app_pk;
CREATE INDEX application_heuristics_idx ON application USING gin (heuristics);
ANALYZE application;
