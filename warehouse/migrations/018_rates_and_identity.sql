-- 018: rates said as people read them; the catalog's own id.
-- A source's change rate as people read it, to three significant figures (an
-- estimate from a few fetches says no more); the due rule plans by the full value.
CREATE OR REPLACE MACRO store.significant(x, digits) AS
    CASE WHEN x IS NULL OR x = 0 THEN x
         ELSE round(x, (digits - 1 - floor(log10(abs(x))))::INTEGER) END;

-- The catalog's own name for what is published of it (the Atom feed's id): made once,
-- with the database, which serves one catalog.
CREATE TABLE store.identity AS SELECT uuid()::VARCHAR AS catalog_uuid;
