-- What the checks of a refresh found for each quote on each page ($snapshot_ids: the
-- snapshots read), so that `evidence check` matches only the quotes never checked there.
-- A status claim's check reads its page for the status too: those are not reused.
SELECT DISTINCT ON (sn.content_hash, k.quote)
       sn.content_hash, k.quote, k.outcome, k.found_text, coalesce(k.found_values, []) AS found_values,
       k.closest_text, k.closest_score
FROM store.checks k JOIN store.snapshots sn USING (snapshot_id)
WHERE list_contains($snapshot_ids::BIGINT[], k.snapshot_id) AND k.claim_status IS NULL;
