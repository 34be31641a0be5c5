-- sparkscope fetch (issue 7, item 6): per History Server, the newest application end time fetched so far, so the
-- next run only asks the History Server for applications that ended since then (minus an overlap, see the README).
-- Kept in the database rather than a local file because several machines may fetch into one database; the value
-- only ever moves forward (FetchState.advance), so a slower or failing run never rolls another's progress back.
-- Versions 4 and 5 are reserved for other work of issue 7.
CREATE TABLE fetch_state (
    history_server  text        PRIMARY KEY,
    newest_end_time bigint      NOT NULL,
    updated_at      timestamptz NOT NULL DEFAULT now()
);
