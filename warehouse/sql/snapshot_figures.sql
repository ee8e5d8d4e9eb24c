-- The figures read from one snapshot, as `evidence diff` lists those that came and went.
SELECT kind, value, value_end, unit, currency, qualifier, raw
FROM quoted_numbers
WHERE snapshot_id = $snapshot_id;
