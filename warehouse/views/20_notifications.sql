-- Every message the product raises. A message counts as delivered once every channel
-- it went to has it; never while it went to none.
CREATE VIEW notifications AS
SELECT m.notification_id, m.kind, m.record_id, m.source_id, m.title, m.body, m.raised_at,
       CASE WHEN count(d.delivery_id) > 0 AND count(d.sent_at) = count(d.delivery_id)
            THEN max(d.sent_at) END AS delivered_at,
       m.run_id
FROM store.messages m LEFT JOIN store.deliveries d USING (notification_id)
GROUP BY m.notification_id, m.kind, m.record_id, m.source_id, m.title, m.body, m.raised_at,
         m.run_id;
