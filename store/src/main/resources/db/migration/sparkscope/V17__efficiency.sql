-- How much of what each application held it used: core-hours and GB-hours (GiB) allocated against used, the part held
-- while only the driver worked, and the waste in each. Resources, not money: prices change, so a page multiplies these
-- by the operator's prices when it shows them. Rows stored before this migration have NULL here, which the pages show
-- as "not computed" (never as 0); reanalyze fills them. gb_hours_peak_used and gb_hours_wasted are also NULL when Spark
-- measured no executor's memory (no peak metrics in the log or from heartbeats).
ALTER TABLE application
    ADD COLUMN core_hours_allocated    double precision,
    ADD COLUMN core_hours_used         double precision,
    ADD COLUMN core_hours_wasted       double precision,
    ADD COLUMN core_hours_driver_alone double precision,
    ADD COLUMN gb_hours_allocated      double precision,
    ADD COLUMN gb_hours_peak_used      double precision,
    ADD COLUMN gb_hours_wasted         double precision,
    ADD COLUMN gb_hours_driver_alone   double precision,
    ADD COLUMN driver_alone_ms         bigint;

-- Search sorts by idle core-hours and filters on a minimum of them: with the app_pk tie-breaker the most wasteful page
-- is read in index order and stopped after offset + 50 rows, and "at least N idle core-hours" is a range of it.
-- Not-computed rows sort after every computed one.
CREATE INDEX application_core_waste_pk_idx ON application (core_hours_wasted DESC NULLS LAST, app_pk DESC);
CREATE INDEX application_gb_waste_pk_idx ON application (gb_hours_wasted DESC NULLS LAST, app_pk DESC);
