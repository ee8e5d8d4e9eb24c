-- Which checks count and the grades the rules give (grade_rules.sql), stored; then one history row each time a
-- record's grade or freshness changes.
UPDATE store.current_checks k SET counts = c.counts
FROM check_counts_rule c
WHERE c.record_id = k.record_id AND c.claim_id = k.claim_id AND c.source_id = k.source_id;

DELETE FROM store.claim_grades;
INSERT INTO store.claim_grades SELECT * FROM claim_grade_rule;

DELETE FROM store.record_grades;
INSERT INTO store.record_grades SELECT * FROM record_grade_rule;

-- One history row each time a record's grade or freshness changes.
INSERT INTO store.grade_history
WITH last AS (
    SELECT record_id, arg_max(grade, rowid) AS grade, arg_max(freshness, rowid) AS freshness
    FROM store.grade_history GROUP BY record_id
)
SELECT s.record_id, s.grade, s.freshness, evidence_now()
FROM record_status s LEFT JOIN last l USING (record_id)
WHERE l.record_id IS NULL OR l.grade <> s.grade OR l.freshness <> s.freshness;
