-- Webhook notifications sent by `sparkscope serve --webhook-url` (issue 7, item 5).
--
-- The server only reads what listeners and imports write, so it has to notice applications that finished. Two
-- things make that possible without touching any writer:
--  * application.completed_at: when Sparkscope first stored the application as COMPLETE (database clock). Spark's own
--    end_time cannot serve: an old event log imported today has an end_time of years ago, yet it finished *for us*
--    now, and `reanalyze` rewrites old rows without finishing them again. A trigger keeps it, so listeners, `import`
--    and `reanalyze` all set it the same way; rows already COMPLETE get the time they were last written.
--  * notification: one row per (application, webhook target), claimed with INSERT … ON CONFLICT DO NOTHING before the
--    POST, so each application is sent once per target even with several servers and across restarts.

ALTER TABLE application ADD COLUMN completed_at timestamptz;
UPDATE application SET completed_at = updated_at WHERE status = 'COMPLETE';

CREATE FUNCTION sparkscope_application_completed_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The upsert never names completed_at, so on UPDATE NEW carries OLD's value: set once, on the first COMPLETE.
    IF NEW.status = 'COMPLETE' THEN
        IF NEW.completed_at IS NULL THEN
            NEW.completed_at := now();
        END IF;
    ELSE
        NEW.completed_at := NULL;
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER application_completed_at BEFORE INSERT OR UPDATE ON application
    FOR EACH ROW EXECUTE FUNCTION sparkscope_application_completed_at();

-- The poller's scan: applications completed since a point in time.
CREATE INDEX application_completed_at_idx ON application (completed_at) WHERE completed_at IS NOT NULL;

CREATE TABLE notification (
    app_pk          bigint      NOT NULL REFERENCES application ON DELETE CASCADE,
    -- SHA-256 (hex) of the webhook URL: the key, without keeping the URL, whose path or query may hold a secret.
    target          text        NOT NULL,
    state           text        NOT NULL CHECK (state IN ('CLAIMED', 'SENT', 'FAILED')),
    claimed_by      text        NOT NULL,          -- host:pid of the server that claimed it last
    claimed_at      timestamptz NOT NULL DEFAULT now(),
    rounds          integer     NOT NULL DEFAULT 1, -- delivery rounds claimed (each round: the notifier's retries)
    next_attempt_at timestamptz,                   -- FAILED: not retried before this
    sent_at         timestamptz,
    last_error      text,
    PRIMARY KEY (app_pk, target)
);
-- Due retries and stale claims of one target.
CREATE INDEX notification_pending_idx ON notification (target, claimed_at) WHERE state <> 'SENT';
