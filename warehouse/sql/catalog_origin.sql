-- The config directory the stored catalog came from.
SELECT config_dir FROM store.catalog_origin;
