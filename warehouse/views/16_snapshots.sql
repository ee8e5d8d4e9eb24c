-- A snapshot per source per distinct reading, with its archived copy: the newest
-- capture of its URL with its content.
CREATE VIEW snapshots AS
SELECT s.snapshot_id, s.source_id, s.url, s.fetched_at, s.content_hash, p.title, p.text, p.bytes,
       s.via, s.record_id, s.render,
       EXISTS (SELECT 1 FROM store.bodies b WHERE b.content_hash = s.content_hash) AS html_kept,
       p.published_on, p.modified_on, a.archived_url, a.archived_at, p.read_partly
FROM store.snapshots s JOIN store.pages p USING (content_hash)
LEFT JOIN (
    SELECT url, content_hash, arg_max(archived_url, archived_at) AS archived_url,
           max(archived_at) AS archived_at
    FROM store.captures WHERE state = 'archived' GROUP BY url, content_hash
) a ON a.url = s.url AND a.content_hash = s.content_hash;
