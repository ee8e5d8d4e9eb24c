-- What the checks of a refresh found for each quote on each page ($snapshot_ids: the
-- snapshots read; $rules: the rules checks are made by now), so that `evidence check`
-- matches only the quotes never checked there. A status claim's check is its own.
SELECT DISTINCT ON (sn.content_hash, k.quote, k.claim_status)
       sn.content_hash, k.quote, k.claim_status, k.outcome, k.found_text,
       coalesce(k.found_values, []) AS found_values, k.closest_text, k.closest_score,
       k.found_status
FROM store.checks k JOIN store.snapshots sn USING (snapshot_id)
WHERE list_contains($snapshot_ids::BIGINT[], k.snapshot_id) AND k.rules = $rules;
