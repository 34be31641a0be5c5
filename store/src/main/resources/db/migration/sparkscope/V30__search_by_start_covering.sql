-- A filtered search (by name, user, severity or heuristic) counts its matches up to a cap on every page, and with a
-- million applications the count cost more than the page: PostgreSQL counted through whichever index was narrowest,
-- in that index's order, so a name filter read 400 000 names alphabetically before finding its first thousand
-- matches (65 ms). The count now reads the applications newest first, as the page does, and this index carries the
-- columns the common filters test, so both read only the index, from the newest application back, until the page or
-- the cap is full: about cap ÷ (the filter's share of applications) index entries (18 000 for a name that one
-- application in eighteen has: 7 ms). It also carries the dashboard's waste columns, and replaces the index that
-- carried only those (one index kept up to date on every write instead of two).
CREATE INDEX application_start_search_idx ON application (start_time)
    INCLUDE (app_pk, core_hours_wasted, gb_hours_wasted, core_hours_allocated, gb_hours_allocated,
             name_lower, spark_user, worst_severity, heuristics, complete);
DROP INDEX application_start_waste_idx;
