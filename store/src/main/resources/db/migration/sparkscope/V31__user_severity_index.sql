-- "My applications that went red": a user and a severity together. Each has an index of its own, but a user of a
-- fleet has tens of thousands of applications and a severity hundreds of thousands, so PostgreSQL intersected two
-- long lists for a page and again for its count (190 ms a page with a million applications, for a thousand
-- matches). One index on both, newest first, gives the page and the count their rows directly.
CREATE INDEX application_user_severity_idx ON application (spark_user, worst_severity, start_time DESC);
