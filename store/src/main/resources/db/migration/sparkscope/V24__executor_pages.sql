-- An elastic application may have 100 000 executors; its executors tab and Spark's executor lists show one page of
-- them. Three things made each page cost all of them, and this migration removes each.
--
-- 1. The heading's counts (how many, how many removed, whether any measured peak memory) were an aggregate over
--    every executor on every request. The writer now keeps them here, once per write that touched executors.
--    dense_ord: the positions (ord) are exactly 0 … total - 1, each once, so the page at offset N of all executors
--    in the order they appeared starts at ord = N and is read from the index without counting the rows before it.
CREATE TABLE executor_counts (
    app_pk    bigint  PRIMARY KEY REFERENCES application ON DELETE CASCADE,
    total     integer NOT NULL,
    removed   integer NOT NULL,
    any_peaks boolean NOT NULL,
    dense_ord boolean NOT NULL
);

INSERT INTO executor_counts (app_pk, total, removed, any_peaks, dense_ord)
SELECT app_pk, count(*), count(*) FILTER (WHERE remove_time >= 0),
       coalesce(bool_or(peak_metrics <> '{}'::jsonb AND jsonb_path_exists(peak_metrics, '$.* ? (@ != 0)')), false),
       count(*) = count(DISTINCT ord) AND min(ord) = 0 AND max(ord) = count(*) - 1
FROM executor GROUP BY app_pk;

-- 2. A page at an offset read and threw away every row before it. With these indexes the rows skipped are index
--    entries only (an index-only scan, in each order a page is read in), and the page's own rows are then fetched
--    by key. They hold the sort keys exactly as the reader sorts (executor ids as plain text, "C"), so a page also
--    stops after its last row instead of sorting all of them; remove_time is included for the live/removed filter.
DROP INDEX executor_app_ord;
CREATE INDEX executor_app_ord ON executor (app_pk, ord, executor_id COLLATE "C") INCLUDE (remove_time);
CREATE INDEX executor_app_id ON executor (app_pk, executor_id COLLATE "C") INCLUDE (remove_time);
-- 3. The live executors only (Spark's "executors", the tab's "active"): a tenth of an elastic application's rows.
CREATE INDEX executor_live_ord ON executor (app_pk, ord, executor_id COLLATE "C") WHERE remove_time < 0;
CREATE INDEX executor_live_id ON executor (app_pk, executor_id COLLATE "C") WHERE remove_time < 0;
