-- 013: a database serves one catalog. The config directory whose records the stored
-- catalog is (written by each refresh), so that a refresh of another catalog can name
-- where the records it lacks came from.
CREATE TABLE store.catalog_origin (
    config_dir VARCHAR NOT NULL,       -- absolute path of the config directory
    synced_at TIMESTAMPTZ NOT NULL     -- the refresh that last stored it
);
