-- 003: alert state that survives restarts, and an outbox of messages per channel.
ALTER TABLE store.alerts ADD COLUMN recovery_sent_at TIMESTAMPTZ;
ALTER TABLE store.alerts ADD COLUMN notified_open_at TIMESTAMPTZ;

CREATE SEQUENCE IF NOT EXISTS store.notification_ids START 1;
CREATE TABLE store.notifications (
    notification_id BIGINT NOT NULL,
    channel VARCHAR NOT NULL,          -- sha256 of the notify URL (never the URL: it holds secrets)
    channel_masked VARCHAR NOT NULL,   -- the URL with its secrets masked, for people
    kind VARCHAR NOT NULL,             -- unreachable, recovered, grade, changed, stale, review, flow-failed
    record_id VARCHAR,
    title VARCHAR NOT NULL,
    body VARCHAR NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_attempt_at TIMESTAMPTZ,
    sent_at TIMESTAMPTZ,
    last_error VARCHAR
);
