-- Each source's unreachable alerts (opened after failed refreshes in a row), open and closed.
CREATE VIEW alerts AS
SELECT alert_id, record_id, source_id, url, opened_at, closed_at, failures, last_error,
       last_notified_at
FROM store.alerts;
