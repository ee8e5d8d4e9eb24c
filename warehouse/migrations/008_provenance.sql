-- 008: provenance. A page's own dates (published, last updated), and the subject of a
-- figure: the noun phrase it measures ("$4,000 in GPU credits" -> GPU credits), when its
-- sentence names it next to the figure.
ALTER TABLE store.pages ADD COLUMN published_on DATE;
ALTER TABLE store.pages ADD COLUMN modified_on DATE;
ALTER TABLE store.page_numbers ADD COLUMN subject VARCHAR;
