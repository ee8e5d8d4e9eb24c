-- 002: a primary page that suddenly loses most of its text, or every claim it confirmed,
-- is kept but held for review: it does not count as evidence until a person accepts it.
CREATE TABLE store.snapshot_reviews (
    snapshot_id BIGINT NOT NULL,
    record_id VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    reason VARCHAR,                 -- NULL: looked at and passed
    flagged_at TIMESTAMPTZ NOT NULL,
    accepted_at TIMESTAMPTZ
);

-- Snapshots held for review (flagged, not accepted).
CREATE VIEW store.held_snapshots AS
SELECT snapshot_id, record_id, source_id, reason, flagged_at
FROM store.snapshot_reviews WHERE reason IS NOT NULL AND accepted_at IS NULL;

-- The newest successful snapshot of every configured source, and the newest time a
-- successful fetch (a 200, or a 304 to a conditional request) vouched for it; with
-- include_held false, snapshots held for review do not count.
CREATE MACRO store.newest_snapshots(include_held) AS TABLE
WITH ok AS (
    SELECT f.record_id, f.source_id, f.snapshot_id, f.evidence_at
    FROM store.fetches f JOIN store.sources s USING (record_id, source_id, url)
    WHERE f.outcome IN ('ok', 'not_modified') AND f.snapshot_id IS NOT NULL
      AND (include_held OR f.snapshot_id NOT IN (SELECT snapshot_id FROM store.held_snapshots))
), newest AS (
    SELECT record_id, source_id, arg_max(snapshot_id, evidence_at) AS snapshot_id
    FROM ok GROUP BY record_id, source_id
)
SELECT n.record_id, n.source_id, n.snapshot_id, max(ok.evidence_at) AS checked_at
FROM newest n JOIN ok USING (record_id, source_id, snapshot_id)
GROUP BY ALL;

-- What claims are checked on: the newest snapshot, held or not.
CREATE VIEW store.latest_snapshots AS SELECT * FROM store.newest_snapshots(true);
-- The evidence: the newest snapshot not held for review.
CREATE OR REPLACE VIEW store.current_snapshots AS SELECT * FROM store.newest_snapshots(false);

CREATE OR REPLACE VIEW source_health AS
WITH live AS (
    SELECT f.*, f.outcome IN ('ok', 'not_modified') AS ok
    FROM store.fetches f JOIN store.sources s USING (record_id, source_id, url)
    WHERE f.via = 'live'
), last_ok AS (
    SELECT record_id, source_id, max(started_at) AS last_ok_at, max(fetch_id) AS last_ok_fetch
    FROM live WHERE ok GROUP BY ALL
), summary AS (
    SELECT l.record_id, l.source_id,
           max(l.started_at) AS last_attempt_at,
           arg_max(l.outcome, l.fetch_id) AS last_outcome,
           arg_max_null(l.http_status, l.fetch_id) AS last_http_status,
           count(DISTINCT l.run_id) FILTER (
               WHERE NOT l.ok AND l.fetch_id > coalesce(o.last_ok_fetch, -1)
           ) AS consecutive_failures
    FROM live l LEFT JOIN last_ok o USING (record_id, source_id)
    GROUP BY ALL
)
SELECT s.record_id, s.source_id, s.url, s.role, m.last_attempt_at, o.last_ok_at, m.last_outcome,
       m.last_http_status, coalesce(m.consecutive_failures, 0)::INTEGER AS consecutive_failures,
       coalesce(m.last_outcome IN ('ok', 'not_modified'), false) AS reachable,
       h.reason AS needs_review
FROM store.sources s
LEFT JOIN summary m USING (record_id, source_id)
LEFT JOIN last_ok o USING (record_id, source_id)
LEFT JOIN store.latest_snapshots l USING (record_id, source_id)
LEFT JOIN store.held_snapshots h ON h.snapshot_id = l.snapshot_id
ORDER BY s.record_id, s.position;

