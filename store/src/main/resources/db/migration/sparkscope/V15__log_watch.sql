-- What `sparkscope watch` (and `serve --watch`) knows of each event log it has
-- read, so a restart resumes instead of reading every log again, and several watchers on one directory share the
-- work. One row per log, keyed by its location without ".inprogress" (a log Spark renames when its application
-- ends stays one row).
--   status        RUNNING: read while still being written; DONE: read to its end once finished;
--                 UNREADABLE: not an event log, or no application in it
--   size_bytes, modified_at: the log (all parts of a rolling one) as it was when last read; a log seen again with
--                 the same values is not read again
--   part_index, part_bytes, part_lines: where reading stopped (rolling part, uncompressed bytes and lines in it)
--   claimed_by, claimed_until: the watcher working on the log (a lease, renewed on every scan while it is kept
--                 open); another watcher takes it only once the lease ran out
CREATE TABLE log_watch (
    log_key       text        PRIMARY KEY,
    status        text        NOT NULL CHECK (status IN ('NEW', 'RUNNING', 'DONE', 'UNREADABLE')),
    app_id        text,
    attempt_id    text,
    size_bytes    bigint      NOT NULL DEFAULT -1,
    modified_at   bigint      NOT NULL DEFAULT -1,
    part_index    bigint      NOT NULL DEFAULT -1,
    part_bytes    bigint      NOT NULL DEFAULT 0,
    part_lines    bigint      NOT NULL DEFAULT 0,
    events        bigint      NOT NULL DEFAULT 0,
    claimed_by    text,
    claimed_until timestamptz,
    updated_at    timestamptz NOT NULL DEFAULT now()
);
-- a watcher loads the rows of its directory: keys start with the directory's location
CREATE INDEX log_watch_key_prefix ON log_watch (log_key text_pattern_ops);
