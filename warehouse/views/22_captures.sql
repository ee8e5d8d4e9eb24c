-- The capture queue: pages sent, or to be sent, to a web archive.
CREATE VIEW captures AS
SELECT capture_id, record_id, source_id, url, snapshot_id, reason, queued_at, state,
       attempts, sent_at, next_at, archived_url, archived_at, last_error
FROM store.captures;
