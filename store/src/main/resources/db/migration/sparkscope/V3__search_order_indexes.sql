-- Search page order (issue 5): the page is ORDER BY start_time|duration_ms DESC|ASC, app_pk in the same direction.
-- With the app_pk tie-breaker in the index the newest-first (and longest-first) page is read in index order and
-- stopped after offset + 50 rows, with no (incremental) sort. Both directions use the same index (backward scan).
-- They replace the single-column indexes, whose every use they also serve.
CREATE INDEX application_start_pk_idx    ON application (start_time DESC, app_pk DESC);
CREATE INDEX application_duration_pk_idx ON application (duration_ms DESC, app_pk DESC);
DROP INDEX application_start_idx;
DROP INDEX application_duration_idx;
