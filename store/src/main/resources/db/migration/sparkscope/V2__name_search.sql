-- Search by application name substring (issue 5). A trigram GIN index serves `name ILIKE '%…%'` at any table size.
-- pg_trgm ships with PostgreSQL's contrib (zonky's binaries and Debian's server include it) and is a trusted
-- extension since PostgreSQL 13, so a database owner may create it. Where it cannot be created (older server,
-- missing contrib, no privilege) we fall back to a lower(name) btree: prefix searches stay indexed and an infix
-- ILIKE scans the application table, which is still a few milliseconds at 10 000 applications.
DO $$
BEGIN
    BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        EXECUTE 'CREATE INDEX application_name_trgm_idx ON application USING gin (name gin_trgm_ops)';
        EXECUTE 'CREATE INDEX application_app_id_trgm_idx ON application USING gin (app_id gin_trgm_ops)';
    EXCEPTION WHEN OTHERS THEN
        RAISE NOTICE 'pg_trgm unavailable (%), using a lower(name) btree for name search', SQLERRM;
        EXECUTE 'CREATE INDEX application_name_lower_idx ON application (lower(name) text_pattern_ops)';
    END;
END
$$;
