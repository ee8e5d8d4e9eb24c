-- Grading: every claim and record at once (docs/grading.md, "Grades" and "Freshness").
-- Runs in one transaction after the checks of new snapshots are stored.

DELETE FROM store.current_checks;

-- The newest successful snapshot of every source, checked against every claim it backs;
-- a dead source's live page is kept but does not count (an archived copy does).
INSERT INTO store.current_checks (
    record_id, claim_id, source_id, role, snapshot_id, checked_at, via, outcome, found_text,
    found_values, closest_text, closest_score, found_status, value, unit, currency,
    value_status, value_text, fetched_at, run_id, counts)
SELECT c.record_id, c.claim_id, s.source_id, s.role, cur.snapshot_id, cur.checked_at, sn.via,
       coalesce(k.outcome, 'absent'), k.found_text, coalesce(k.found_values, []),
       k.closest_text, k.closest_score, k.found_status, k.value, k.unit, k.currency,
       k.value_status, k.value_text, sn.fetched_at, cur.run_id,
       h.dead_since IS NULL OR sn.via = 'archived'
FROM store.claims c
JOIN store.sources s
  ON s.record_id = c.record_id
 AND (c.source_ids IS NULL OR list_contains(c.source_ids, s.source_id))
JOIN store.current_snapshots cur ON cur.record_id = s.record_id AND cur.source_id = s.source_id
JOIN store.snapshots sn ON sn.snapshot_id = cur.snapshot_id
LEFT JOIN store.source_health_base h ON h.record_id = s.record_id AND h.source_id = s.source_id
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

DELETE FROM store.claim_grades;

-- A claim's grade: the newest evidence decides. Among the primaries that confirm it or
-- show it changed, those of the run that fetched one most recently decide: documented
-- if one of them confirms it (when another of that run shows it changed, the primaries
-- disagree), else contradicted; with no such primary, reported if a third party
-- confirms it, else unverified. `absent` is no evidence either way.
INSERT INTO store.claim_grades
WITH counted AS (
    SELECT * FROM store.current_checks WHERE counts
), primaries AS (
    SELECT * FROM counted WHERE role = 'primary' AND outcome IN ('confirmed', 'changed')
), newest AS (     -- the run of the primary fetched most recently
    SELECT record_id, claim_id, arg_max(coalesce(run_id, ''), checked_at) AS run_id
    FROM primaries GROUP BY ALL
), deciding AS (
    SELECT p.record_id, p.claim_id,
           bool_or(p.outcome = 'confirmed') AS confirms,
           bool_or(p.outcome = 'changed') AS changes
    FROM primaries p JOIN newest n
      ON n.record_id = p.record_id AND n.claim_id = p.claim_id
     AND n.run_id = coalesce(p.run_id, '')
    GROUP BY ALL
), graded AS (
    SELECT c.record_id, c.claim_id,
           CASE WHEN d.confirms THEN 'documented'
                WHEN d.changes THEN 'contradicted'
                WHEN bool_or(k.role = 'third-party' AND k.outcome = 'confirmed') THEN 'reported'
                ELSE 'unverified' END AS grade,
           coalesce(d.confirms AND d.changes, false) AS disagree
    FROM store.claims c
    LEFT JOIN counted k USING (record_id, claim_id)
    LEFT JOIN deciding d USING (record_id, claim_id)
    GROUP BY c.record_id, c.claim_id, d.confirms, d.changes
), backing AS (    -- the checks that back each claim's grade
    SELECT g.record_id, g.claim_id, k.checked_at, k.via
    FROM graded g JOIN counted k USING (record_id, claim_id)
    WHERE (g.grade = 'documented' AND k.role = 'primary' AND k.outcome = 'confirmed')
       OR (g.grade = 'contradicted' AND k.role = 'primary' AND k.outcome = 'changed')
       OR (g.grade = 'reported' AND k.role = 'third-party' AND k.outcome = 'confirmed')
), backed AS (
    SELECT record_id, claim_id, max(checked_at) AS checked_at,
           arg_max(via, checked_at) AS via
    FROM backing GROUP BY ALL
), confirming AS (
    SELECT record_id, claim_id, list(DISTINCT source_id ORDER BY source_id) AS sources
    FROM counted WHERE outcome = 'confirmed' GROUP BY ALL
), changed AS (
    SELECT record_id, claim_id,
           first(found_values ORDER BY role = 'primary' DESC, checked_at DESC) AS found_values
    FROM counted WHERE outcome = 'changed' GROUP BY ALL
)
SELECT g.record_id, g.claim_id, g.grade, b.checked_at, b.via,
       coalesce(c.sources, []::VARCHAR[]), coalesce(h.found_values, []::DOUBLE[]), g.disagree
FROM graded g
LEFT JOIN backed b USING (record_id, claim_id)
LEFT JOIN confirming c USING (record_id, claim_id)
LEFT JOIN changed h USING (record_id, claim_id);

DELETE FROM store.record_grades;

INSERT INTO store.record_grades
WITH per_record AS (
    SELECT r.record_id, r.window_s,
           count(g.claim_id) AS claims,
           CASE WHEN count(g.claim_id) = 0 THEN 'unverified'
                WHEN bool_or(g.grade = 'contradicted') THEN 'contradicted'
                WHEN bool_or(g.grade = 'unverified') THEN 'unverified'
                WHEN bool_or(g.grade = 'reported') THEN 'reported'
                ELSE 'documented' END AS grade,
           CASE WHEN count(g.claim_id) = 0 OR bool_or(g.checked_at IS NULL) THEN NULL
                ELSE min(g.checked_at) END AS checked_at,
           bool_or(g.via = 'archived') AS any_archived
    FROM store.records r LEFT JOIN store.claim_grades g USING (record_id)
    GROUP BY r.record_id, r.window_s
), confirming AS (
    SELECT record_id, count(DISTINCT source_id) AS n
    FROM store.current_checks WHERE outcome = 'confirmed' AND counts GROUP BY record_id
)
SELECT p.record_id, p.grade, coalesce(c.n, 0)::INTEGER, p.checked_at,
       p.checked_at + to_seconds(p.window_s) AS stale_on,
       CASE WHEN p.checked_at IS NULL THEN NULL
            WHEN p.any_archived THEN 'archived' ELSE 'live' END
FROM per_record p LEFT JOIN confirming c USING (record_id);

-- One history row each time a record's grade or freshness changes.
INSERT INTO store.grade_history
WITH last AS (
    SELECT record_id, arg_max(grade, rowid) AS grade, arg_max(freshness, rowid) AS freshness
    FROM store.grade_history GROUP BY record_id
)
SELECT s.record_id, s.grade, s.freshness, evidence_now()
FROM record_status s LEFT JOIN last l USING (record_id)
WHERE l.record_id IS NULL OR l.grade <> s.grade OR l.freshness <> s.freshness;
