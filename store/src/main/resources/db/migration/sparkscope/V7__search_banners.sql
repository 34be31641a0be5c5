-- The search page shows, for each of its 50 applications, a banner per finding (heuristic, severity, title, and the
-- message on hover). Reading them from `finding` was a second statement per page (50 index probes, ~140 rows) and
-- the largest single cost in the database for a search. The writer now also stores them on the application row, in
-- finding order, as [[finding id, heuristic, severity, title, message], …] (NULL when there are none), in the same upsert that
-- maintains num_findings and worst_severity — every finding write goes through it, so the copy cannot drift.
ALTER TABLE application ADD COLUMN banners jsonb;

UPDATE application a
SET banners = b.banners
FROM (SELECT app_pk, jsonb_agg(jsonb_build_array(finding_id, heuristic, severity, title, message) ORDER BY ord) AS banners
      FROM finding GROUP BY app_pk) b
WHERE b.app_pk = a.app_pk;
