-- migrate: no-transaction
CREATE INDEX CONCURRENTLY IF NOT EXISTS contacts_name_trgm_idx ON contacts USING gin (name gin_trgm_ops);
CREATE INDEX CONCURRENTLY IF NOT EXISTS contacts_mobile_trgm_idx ON contacts USING gin (mobile gin_trgm_ops);
