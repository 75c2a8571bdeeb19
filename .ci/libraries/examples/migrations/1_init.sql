-- A table, as a first migration.
CREATE TABLE IF NOT EXISTS items (id UInt32, name String) ENGINE = MergeTree ORDER BY id;
