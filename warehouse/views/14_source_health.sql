-- Each configured source: its last attempts, whether it answers, and when it is next due.
CREATE VIEW source_health AS
SELECT b.* EXCLUDE (position), d.next_due, store.significant(d.change_rate, 3) AS change_rate
FROM store.source_health_base b LEFT JOIN store.source_due d USING (record_id, source_id)
ORDER BY b.record_id, b.position;
