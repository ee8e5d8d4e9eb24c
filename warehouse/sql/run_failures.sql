-- The sources whose live fetch failed in a run: the newest live attempt of each.
SELECT url, record_id, source_id,
       arg_max(outcome, fetch_id) AS outcome, arg_max(error, fetch_id) AS error
FROM store.fetches
WHERE run_id = $run_id AND via = 'live'
GROUP BY url, record_id, source_id
HAVING arg_max(outcome, fetch_id) NOT IN ('ok', 'not_modified')
ORDER BY url, record_id, source_id;
