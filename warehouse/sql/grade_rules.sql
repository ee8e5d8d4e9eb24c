-- The grade rules (docs/grading.md, "Grades"), as views over what they read:
--   grading_checks   every check of a source's newest page (record_id, claim_id,
--                    source_id, role, outcome, checked_at, via, run_id, found_values,
--                    dead_since: when its source died, null while it lives)
--   grading_claims   every claim (record_id, claim_id)
--   grading_records  every record (record_id, window_s)
--   graded_claims    the claims' grades, as claim_grade_rule gives them
-- The refresh points these at the store (grade.sql); `evidence check` and `plan` at the
-- checks they would make (warehouse/grading.py). One set of rules, two callers.

-- Which checks count, decided here and nowhere else: a dead source's live page does not
-- (docs/grading.md, "Sources that disagree or die"); a copy from the archive does.
CREATE OR REPLACE TEMP VIEW check_counts_rule AS
SELECT *, dead_since IS NULL OR via = 'archived' AS counts
FROM grading_checks;

-- A claim's grade: the newest evidence decides. Among the primaries that confirm it or
-- show it changed, those of the run that fetched one most recently decide: documented
-- if one of them confirms it (when another of that run shows it changed, the primaries
-- disagree), else contradicted; with no such primary, reported if a third party
-- confirms it, else unverified. `absent` is no evidence either way.
CREATE OR REPLACE TEMP VIEW claim_grade_rule AS
WITH counted AS (
    SELECT * FROM check_counts_rule WHERE counts
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
    FROM grading_claims c
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
       coalesce(c.sources, []::VARCHAR[]) AS confirming_sources,
       coalesce(h.found_values, []::DOUBLE[]) AS found_values, g.disagree
FROM graded g
LEFT JOIN backed b USING (record_id, claim_id)
LEFT JOIN confirming c USING (record_id, claim_id)
LEFT JOIN changed h USING (record_id, claim_id);

-- A record's grade: the weakest of its claims'; its freshness from the claims' dates.
CREATE OR REPLACE TEMP VIEW record_grade_rule AS
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
    FROM grading_records r LEFT JOIN graded_claims g USING (record_id)
    GROUP BY r.record_id, r.window_s
), confirming AS (
    SELECT record_id, count(DISTINCT source_id) AS n
    FROM check_counts_rule
    WHERE outcome = 'confirmed' AND counts
    GROUP BY record_id
)
SELECT p.record_id, p.grade, coalesce(c.n, 0)::INTEGER AS sources_confirming, p.checked_at,
       p.checked_at + to_seconds(p.window_s) AS stale_on,
       CASE WHEN p.checked_at IS NULL THEN NULL
            WHEN p.any_archived THEN 'archived' ELSE 'live' END AS via
FROM per_record p LEFT JOIN confirming c USING (record_id);
