-- Grading: every claim and record at once (CONTRACT.md, "Grades" and "Freshness").
-- Runs in one transaction after the checks of new snapshots are stored.

DELETE FROM store.current_checks;

-- The newest successful snapshot of every source, checked against every claim it backs.
INSERT INTO store.current_checks
SELECT c.record_id, c.claim_id, s.source_id, s.role, cur.snapshot_id, cur.checked_at, sn.via,
       coalesce(k.outcome, 'absent'), k.found_text, coalesce(k.found_values, []),
       k.closest_text, k.closest_score
FROM store.claims c
JOIN store.sources s
  ON s.record_id = c.record_id
 AND (c.source_ids IS NULL OR list_contains(c.source_ids, s.source_id))
JOIN store.current_snapshots cur ON cur.record_id = s.record_id AND cur.source_id = s.source_id
JOIN store.snapshots sn ON sn.snapshot_id = cur.snapshot_id
LEFT JOIN store.checks k
  ON k.record_id = c.record_id AND k.claim_id = c.claim_id AND k.source_id = s.source_id
 AND k.snapshot_id = cur.snapshot_id AND k.quote = c.quote;

DELETE FROM store.claim_grades;

INSERT INTO store.claim_grades
WITH graded AS (
    SELECT c.record_id, c.claim_id,
           CASE WHEN bool_or(k.role = 'primary' AND k.outcome = 'confirmed') THEN 'documented'
                WHEN bool_or(k.role = 'primary' AND k.outcome = 'changed') THEN 'contradicted'
                WHEN bool_or(k.role = 'third-party' AND k.outcome = 'confirmed') THEN 'reported'
                ELSE 'unverified' END AS grade
    FROM store.claims c LEFT JOIN store.current_checks k USING (record_id, claim_id)
    GROUP BY c.record_id, c.claim_id
), backing AS (    -- the checks that back each claim's grade
    SELECT g.record_id, g.claim_id, k.checked_at, k.via
    FROM graded g JOIN store.current_checks k USING (record_id, claim_id)
    WHERE (g.grade = 'documented' AND k.role = 'primary' AND k.outcome = 'confirmed')
       OR (g.grade = 'contradicted' AND k.role = 'primary' AND k.outcome = 'changed')
       OR (g.grade = 'reported' AND k.role = 'third-party' AND k.outcome = 'confirmed')
), backed AS (
    SELECT record_id, claim_id, max(checked_at) AS checked_at,
           arg_max(via, checked_at) AS via
    FROM backing GROUP BY ALL
), confirming AS (
    SELECT record_id, claim_id, list(DISTINCT source_id ORDER BY source_id) AS sources
    FROM store.current_checks WHERE outcome = 'confirmed' GROUP BY ALL
), changed AS (
    SELECT record_id, claim_id,
           first(found_values ORDER BY role = 'primary' DESC, checked_at DESC) AS found_values
    FROM store.current_checks WHERE outcome = 'changed' GROUP BY ALL
)
SELECT g.record_id, g.claim_id, g.grade, b.checked_at, b.via,
       coalesce(c.sources, []::VARCHAR[]), coalesce(h.found_values, []::DOUBLE[])
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
    FROM store.current_checks WHERE outcome = 'confirmed' GROUP BY record_id
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
