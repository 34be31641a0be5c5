-- Search can rank applications by what fixing their findings would save instead of only by start or duration: the
-- root causes' estimated wall-time savings summed (a knock-on's saving is already in its cause's), at most the
-- application's duration. The writer keeps it in the same upsert as num_findings and the banners; rows stored
-- before get it here from their findings' V8 estimates (0 where those were stored without one).
ALTER TABLE application ADD COLUMN saving_ms bigint NOT NULL DEFAULT 0;

UPDATE application a
SET saving_ms = CASE WHEN a.duration_ms > 0 THEN LEAST(s.wall, a.duration_ms) ELSE s.wall END
FROM (SELECT app_pk, sum(GREATEST(impact_wall_ms, 0)) AS wall FROM finding WHERE caused_by IS NULL GROUP BY app_pk) s
WHERE s.app_pk = a.app_pk AND s.wall > 0;

CREATE INDEX application_saving_pk_idx ON application (saving_ms DESC, app_pk DESC);
