-- What needs a person, one row each, most urgent first (docs/keeping.md, "Keeping
-- the catalog"): broken `error` conditions, claims `changed` or `absent` on a primary (or
-- whose primaries disagree), broken `warn` conditions, pages held for review or needing a
-- browser, dead and unreachable sources, records stale or past review_by. Within a kind, records come in the order of
-- `evidence status` and the site's index: warehouse/keeping.py orders the rows by `rank`,
-- then by that, then within a record by `pos1`, `pos2` and `kind`.
WITH graded AS (
    SELECT record_id, grade, freshness, stale_on FROM record_status
), claim_grades AS (
    SELECT record_id, claim_id, grade, coalesce(disagree, false) AS disagree
    FROM store.claim_grades
), moved AS (      -- claims changed or absent on a primary page that counts: not absent
                   -- where another primary confirms it, not changed where the newest
                   -- evidence confirms it (primaries that disagree are one item below)
    SELECT k.record_id, k.claim_id, k.source_id, k.outcome, k.found_text, k.found_values,
           k.closest_text, k.found_status, c.quote, c.status, k.snapshot_id,
           c.position AS claim_pos,
           s.position AS source_pos
    FROM store.current_checks k
    JOIN store.claims c USING (record_id, claim_id)
    JOIN store.sources s USING (record_id, source_id)
    JOIN claim_grades g USING (record_id, claim_id)
    WHERE k.role = 'primary' AND k.outcome IN ('changed', 'absent') AND k.counts
      AND g.grade <> 'documented'
), disagree AS (   -- primaries of one run that disagree: the one showing it changed
    SELECT k.record_id, k.claim_id, k.source_id, k.found_text, k.found_values, c.quote,
           c.status, k.found_status, k.checked_at, c.position AS claim_pos,
           s.position AS source_pos,
           (SELECT string_agg(o.source_id, ', ' ORDER BY o.source_id) FROM store.current_checks o
            WHERE o.record_id = k.record_id AND o.claim_id = k.claim_id AND o.counts
              AND o.role = 'primary' AND o.outcome = 'confirmed') AS confirming
    FROM store.current_checks k
    JOIN store.claims c USING (record_id, claim_id)
    JOIN store.sources s USING (record_id, source_id)
    JOIN claim_grades g USING (record_id, claim_id)
    WHERE g.disagree AND k.role = 'primary' AND k.outcome = 'changed' AND k.counts
    QUALIFY row_number() OVER (PARTITION BY k.record_id, k.claim_id ORDER BY s.position) = 1
), streak AS (     -- since when: the first snapshot of the run of checks that read so
    SELECT m.record_id, m.claim_id, m.source_id,
           max(h.snapshot_id) FILTER (
               WHERE h.outcome <> m.outcome
                  OR coalesce(h.found_values, []) <> coalesce(m.found_values, [])
           ) AS last_other
    FROM moved m
    JOIN store.checks h
      ON h.record_id = m.record_id AND h.claim_id = m.claim_id AND h.source_id = m.source_id
     AND h.quote = m.quote AND h.snapshot_id <= m.snapshot_id
    GROUP BY ALL
), since AS (
    SELECT m.record_id, m.claim_id, m.source_id, min(sn.fetched_at) AS since
    FROM moved m
    JOIN streak st USING (record_id, claim_id, source_id)
    JOIN store.checks h
      ON h.record_id = m.record_id AND h.claim_id = m.claim_id AND h.source_id = m.source_id
     AND h.quote = m.quote AND h.snapshot_id <= m.snapshot_id
     AND h.snapshot_id > coalesce(st.last_other, -1)
    JOIN store.snapshots sn ON sn.snapshot_id = h.snapshot_id
    GROUP BY ALL
), live AS (      -- live fetches of each configured source: source_health's rule,
                  -- without the due times that view also works out
    SELECT f.record_id, f.source_id, f.fetch_id, f.run_id, f.started_at, f.outcome,
           f.http_status, f.error, f.outcome IN ('ok', 'not_modified') AS ok
    FROM store.fetches f JOIN store.sources s USING (record_id, source_id, url)
    WHERE f.via = 'live'
), last_ok AS (
    SELECT record_id, source_id, max(fetch_id) AS fetch_id FROM live WHERE ok GROUP BY ALL
), failing AS (    -- sources whose current run of live fetches failed
    SELECT l.record_id, l.source_id, min(l.started_at) AS since,
           count(DISTINCT l.run_id) AS failures,
           arg_max(l.outcome, l.fetch_id) AS outcome,
           arg_max(l.http_status, l.fetch_id) AS http_status,
           arg_max(l.error, l.fetch_id) AS error
    FROM live l LEFT JOIN last_ok o USING (record_id, source_id)
    WHERE NOT l.ok AND l.fetch_id > coalesce(o.fetch_id, -1)
    GROUP BY ALL
), held AS (       -- the newest page held for review, or an app shell read over HTTP
    SELECT l.record_id, l.source_id, r.reason, r.flagged_at, sn.fetched_at,
           r.reason IS NULL AS shell
    FROM store.latest_snapshots l
    JOIN store.snapshots sn USING (snapshot_id)
    JOIN store.pages p USING (content_hash)
    LEFT JOIN store.held_snapshots r ON r.snapshot_id = l.snapshot_id
    WHERE r.reason IS NOT NULL OR (sn.render = 'http' AND p.app_shell)
), broken AS (     -- conditions that do not hold, since the primary value that broke them
    SELECT k.record_id, k.claim_id, k.condition, k.detail, c.position,
           (SELECT min(v.first_seen_at) FROM store.claim_values v
            JOIN store.sources s USING (record_id, source_id)
            WHERE v.record_id = k.record_id AND v.claim_id = k.claim_id AND v.current
              AND s.role = 'primary') AS since
    FROM store.claim_conditions k JOIN store.claims c USING (record_id, claim_id)
    WHERE k.condition IN ('fail', 'warn')
), reviewed AS (   -- the newest `evidence update` of each claim
    SELECT record_id, claim_id, max(updated_at) AS updated_at
    FROM store.claim_updates GROUP BY ALL
), items AS (
    SELECT CASE condition WHEN 'fail' THEN 0 ELSE 2 END AS rank, record_id,
           claim_id AS subject, NULL::VARCHAR AS source_id,
           'condition-' || condition AS kind, NULL::VARCHAR AS quote, NULL::VARCHAR AS status,
           NULL::VARCHAR AS found_text, NULL::DOUBLE[] AS found_values,
           NULL::VARCHAR AS closest_text, NULL::VARCHAR AS found_status, detail,
           NULL::INTEGER AS failures, since, position AS pos1, 0 AS pos2
    FROM broken
    UNION ALL
    SELECT 1, m.record_id, m.claim_id, m.source_id, m.outcome,
           m.quote, m.status, m.found_text, m.found_values, m.closest_text, m.found_status,
           NULL, NULL, i.since, m.claim_pos, m.source_pos
    FROM moved m JOIN since i USING (record_id, claim_id, source_id)
    UNION ALL
    SELECT 1, d.record_id, d.claim_id, d.source_id, 'disagree',
           d.quote, d.status, d.found_text, d.found_values, NULL, d.found_status,
           d.confirming, NULL, d.checked_at, d.claim_pos, d.source_pos
    FROM disagree d
    UNION ALL
    SELECT 3, h.record_id, h.source_id, h.source_id,
           CASE WHEN h.shell THEN 'needs-browser' ELSE 'held' END,
           NULL, NULL, NULL, NULL, NULL, NULL,
           coalesce(h.reason, 'over HTTP the page is an app shell with no text'), NULL,
           coalesce(h.flagged_at, h.fetched_at), 0, so.position
    FROM held h JOIN store.sources so USING (record_id, source_id)
    UNION ALL
    SELECT 4, f.record_id, f.source_id, f.source_id,
           CASE WHEN h.dead_since IS NULL THEN 'unreachable' ELSE 'dead' END,
           NULL, NULL, NULL, NULL, NULL, NULL,
           f.outcome || coalesce(' ' || f.http_status, '')
               || coalesce(': ' || split_part(f.error, chr(10), 1), ''),
           f.failures::INTEGER, coalesce(h.dead_since, f.since), 0, so.position
    FROM failing f JOIN store.sources so USING (record_id, source_id)
    LEFT JOIN store.source_health_base h USING (record_id, source_id)
    UNION ALL
    SELECT 5, record_id, NULL, NULL, 'stale', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
           stale_on, -1, 0
    FROM graded WHERE freshness = 'stale'
    UNION ALL
    SELECT 5, d.record_id, d.claim_id, NULL, 'review-by', NULL, NULL, NULL, NULL, NULL, NULL,
           NULL, NULL, d.review_by::TIMESTAMPTZ, coalesce(c.position, -1), 1
    FROM store.review_dates d
    LEFT JOIN store.claims c USING (record_id, claim_id)
    LEFT JOIN reviewed u
      ON u.record_id = d.record_id AND (d.claim_id IS NULL OR u.claim_id = d.claim_id)
     AND u.updated_at >= d.review_by::TIMESTAMPTZ
    WHERE d.review_by <= (evidence_now() AT TIME ZONE 'UTC')::DATE AND u.record_id IS NULL
)
SELECT i.rank, i.record_id, i.subject, i.source_id, i.kind, i.quote, i.status, i.found_text,
       i.found_values, i.closest_text, i.found_status, i.detail, i.failures, i.since,
       f.config_file, g.grade, g.freshness, i.pos1, i.pos2
FROM items i
JOIN graded g USING (record_id)
LEFT JOIN store.records f USING (record_id);
