-- 008: provenance. A page's own dates (published, last updated), and the subject of a
-- figure: the noun phrase it measures ("$4,000 in GPU credits" -> GPU credits), when its
-- sentence names it next to the figure.
ALTER TABLE store.pages ADD COLUMN published_on DATE;
ALTER TABLE store.pages ADD COLUMN modified_on DATE;
ALTER TABLE store.page_numbers ADD COLUMN subject VARCHAR;

CREATE OR REPLACE VIEW snapshots AS
SELECT s.snapshot_id, s.source_id, s.url, s.fetched_at, s.content_hash, p.title, p.text, p.bytes,
       s.via, s.record_id, s.render,
       EXISTS (SELECT 1 FROM store.bodies b WHERE b.content_hash = s.content_hash) AS html_kept,
       p.published_on, p.modified_on
FROM store.snapshots s JOIN store.pages p USING (content_hash);

CREATE OR REPLACE VIEW quoted_numbers AS
SELECT s.snapshot_id, s.source_id, n.kind, n.value, n.value_end, n.unit, n.currency, n.qualifier,
       n.date_from, n.date_to, n.raw, n.sentence, s.record_id, n.subject
FROM store.snapshots s JOIN store.page_numbers n USING (content_hash);
