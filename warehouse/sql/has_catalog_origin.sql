-- Whether the database keeps where its catalog came from (one written before does not).
SELECT 1 FROM duckdb_tables() WHERE schema_name = 'store' AND table_name = 'catalog_origin';
