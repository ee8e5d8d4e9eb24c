-- The catalog's own id, made with its database.
SELECT catalog_uuid FROM store.identity;
