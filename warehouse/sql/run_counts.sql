-- What a run's URLs came to, each counted once: a new snapshot, unchanged (a 304, or the
-- same reading), or failed (its live fetch; an archived copy does not make it answer).
WITH run AS (
    SELECT fetch_id, url, outcome, via, snapshot_id FROM store.fetches WHERE run_id = $run_id
), live AS (
    SELECT url, arg_max(outcome, fetch_id) AS outcome FROM run WHERE via = 'live' GROUP BY url
), firsts AS (
    SELECT snapshot_id, min(fetch_id) AS first_fetch
    FROM store.fetches
    WHERE snapshot_id IN (SELECT snapshot_id FROM run WHERE snapshot_id IS NOT NULL)
    GROUP BY snapshot_id
), new_urls AS (
    SELECT DISTINCT r.url FROM run r JOIN firsts f ON f.first_fetch = r.fetch_id
    WHERE r.via = 'live'
)
SELECT count(*) AS urls,
       count(*) FILTER (WHERE outcome IN ('ok', 'not_modified')
                          AND url IN (SELECT url FROM new_urls)) AS new,
       count(*) FILTER (WHERE outcome IN ('ok', 'not_modified')
                          AND url NOT IN (SELECT url FROM new_urls)) AS unchanged,
       count(*) FILTER (WHERE outcome NOT IN ('ok', 'not_modified')) AS failed
FROM live;
