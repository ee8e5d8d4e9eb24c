SELECT r.record_id, r.title, r.fields, r.window_s, s.grade, s.sources_confirming, s.checked_at,
       s.stale_on, s.freshness, s.via,
       (SELECT count(*) FROM store.sources x WHERE x.record_id = r.record_id) AS sources
FROM store.records r JOIN record_status s USING (record_id)
WHERE r.record_id = $record_id;
