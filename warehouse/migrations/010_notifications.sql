-- 010: every message the product raises is kept, delivered or not (store.messages, the
-- view `notifications`); the outbox holds one delivery of a message per notify channel
-- (store.deliveries); each refresh run is noted (store.runs), so that "the newest run"
-- has a meaning.
CREATE TABLE store.messages (
    notification_id BIGINT NOT NULL,
    kind VARCHAR NOT NULL,             -- unreachable, recovered, grade, changed, stale, review, flow-failed
    record_id VARCHAR,
    source_id VARCHAR,
    title VARCHAR NOT NULL,
    body VARCHAR NOT NULL,
    raised_at TIMESTAMPTZ NOT NULL,
    run_id VARCHAR                     -- the refresh that raised it
);

-- Messages queued before 010 were kept once per channel: one message each. The source of
-- an unreachable or recovered one is the third word of its title ("unreachable: <record>
-- <source> failed ..."); ids are slugs, never spaced.
INSERT INTO store.messages
SELECT min(notification_id), kind, record_id,
       CASE WHEN kind IN ('unreachable', 'recovered') THEN split_part(title, ' ', 3) END,
       title, body, created_at, NULL
FROM store.notifications GROUP BY kind, record_id, title, body, created_at;

CREATE TABLE store.deliveries (
    delivery_id BIGINT NOT NULL,
    notification_id BIGINT NOT NULL,   -- the message delivered
    channel VARCHAR NOT NULL,          -- sha256 of the notify URL (never the URL: it holds secrets)
    channel_masked VARCHAR NOT NULL,   -- the URL with its secrets masked, for people
    attempts INTEGER NOT NULL DEFAULT 0,
    last_attempt_at TIMESTAMPTZ,
    sent_at TIMESTAMPTZ,
    last_error VARCHAR
);

INSERT INTO store.deliveries
SELECT n.notification_id, m.notification_id, n.channel, n.channel_masked, n.attempts,
       n.last_attempt_at, n.sent_at, n.last_error
FROM store.notifications n JOIN store.messages m
  ON m.kind = n.kind AND m.record_id IS NOT DISTINCT FROM n.record_id AND m.title = n.title
 AND m.body = n.body AND m.raised_at = n.created_at;

DROP TABLE store.notifications;

-- Runs in the order they began (their times follow EVIDENCE_NOW, which may go back).
CREATE SEQUENCE store.run_numbers START 1;
CREATE TABLE store.runs (
    run_id VARCHAR NOT NULL,
    started_at TIMESTAMPTZ NOT NULL,
    run_number BIGINT NOT NULL DEFAULT nextval('store.run_numbers')
);
INSERT INTO store.runs (run_id, started_at)
SELECT run_id, min(started_at) FROM store.fetches GROUP BY run_id ORDER BY min(fetch_id);
