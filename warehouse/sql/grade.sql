-- Grading: every claim and record at once (docs/grading.md, "Grades" and "Freshness").
-- Runs in one transaction after the checks of new snapshots are stored.

DELETE FROM store.current_checks;

-- The newest successful snapshot of every source, checked against every claim it backs;
-- whether each counts is the rules' to say (grade_rules.sql, grade_store.sql).
INSERT INTO store.current_checks (
    record_id, claim_id, source_id, role, snapshot_id, checked_at, via, outcome, found_text,
    found_values, closest_text, closest_score, found_status, value, unit, currency,
    value_status, value_text, fetched_at, run_id, counts)
SELECT c.record_id, c.claim_id, s.source_id, s.role, cur.snapshot_id, cur.checked_at, sn.via,
       coalesce(k.outcome, 'absent'), k.found_text, coalesce(k.found_values, []),
       k.closest_text, k.closest_score, k.found_status, k.value, k.unit, k.currency,
       k.value_status, k.value_text, sn.fetched_at, cur.run_id, NULL
FROM store.claims c
JOIN store.sources s
  ON s.record_id = c.record_id
 AND (c.source_ids IS NULL OR list_contains(c.source_ids, s.source_id))
JOIN store.current_snapshots cur ON cur.record_id = s.record_id AND cur.source_id = s.source_id
JOIN store.snapshots sn ON sn.snapshot_id = cur.snapshot_id
LEFT JOIN store.checks k
  ON k.record_id = c.record_id AND k.claim_id = c.claim_id AND k.source_id = s.source_id
 AND k.snapshot_id = cur.snapshot_id AND k.quote = c.quote
 AND (k.rules IS NULL    -- made before claims had values: counts until made again
      OR (k.rules = 2 AND k.claim_status IS NOT DISTINCT FROM c.status
          AND k.figure IS NOT DISTINCT FROM c.figure));

-- Every distinct value each source has shown for each claim: a value other than the
-- source's last one (or its first) is a new row; the same one seen again moves its
-- last_seen_at. Only the rows the current checks give now are `current`.
-- A date's value is its words (value and status null, text "July 15 to August 2").
INSERT INTO store.claim_values
WITH shown AS (
    SELECT * FROM store.current_checks
    WHERE value IS NOT NULL OR value_status IS NOT NULL OR value_text IS NOT NULL
), latest AS (
    SELECT * FROM store.claim_values
    QUALIFY row_number() OVER (PARTITION BY record_id, claim_id, source_id
                               ORDER BY value_id DESC) = 1
)
SELECT nextval('store.value_ids'), n.record_id, n.claim_id, n.source_id, n.value, n.unit,
       n.currency, n.value_status, n.value_text, least(n.fetched_at, n.checked_at),
       n.checked_at, false
FROM shown n
LEFT JOIN latest l USING (record_id, claim_id, source_id)
WHERE l.value_id IS NULL
   OR l.value IS DISTINCT FROM n.value OR l.currency IS DISTINCT FROM n.currency
   OR l.status IS DISTINCT FROM n.value_status
   OR (n.value IS NULL AND n.value_status IS NULL AND l.text IS DISTINCT FROM n.value_text)
ORDER BY n.record_id, n.claim_id, n.source_id;

UPDATE store.claim_values SET current = false WHERE current;

UPDATE store.claim_values v
SET current = true, last_seen_at = greatest(v.last_seen_at, m.checked_at)
FROM (
    SELECT l.value_id, n.checked_at
    FROM (SELECT * FROM store.claim_values
          QUALIFY row_number() OVER (PARTITION BY record_id, claim_id, source_id
                                     ORDER BY value_id DESC) = 1) l
    JOIN store.current_checks n USING (record_id, claim_id, source_id)
    WHERE (n.value IS NOT NULL OR n.value_status IS NOT NULL OR n.value_text IS NOT NULL)
      AND l.value IS NOT DISTINCT FROM n.value AND l.currency IS NOT DISTINCT FROM n.currency
      AND l.status IS NOT DISTINCT FROM n.value_status
      AND (n.value IS NOT NULL OR n.value_status IS NOT NULL
           OR l.text IS NOT DISTINCT FROM n.value_text)
) m
WHERE v.value_id = m.value_id;

-- What the grade rules (grade_rules.sql) read, pointed at the store: every current check
-- with when its source died (a table: the rules read it three times, the join over every
-- fetch is made once), the claims, the records, their grades.
CREATE OR REPLACE TEMP TABLE grading_checks AS
SELECT k.record_id, k.claim_id, k.source_id, k.role, k.outcome, k.checked_at, k.via, k.run_id,
       k.found_values, h.dead_since
FROM store.current_checks k
LEFT JOIN store.source_health_base h USING (record_id, source_id);
CREATE OR REPLACE TEMP VIEW grading_claims AS SELECT record_id, claim_id FROM store.claims;
CREATE OR REPLACE TEMP VIEW grading_records AS SELECT record_id, window_s FROM store.records;
CREATE OR REPLACE TEMP VIEW graded_claims AS SELECT * FROM store.claim_grades;
