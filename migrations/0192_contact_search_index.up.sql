-- migrate: no-transaction
-- Contains-search on names (ILIKE '%…%'), built while the table stays writable.
CREATE INDEX CONCURRENTLY IF NOT EXISTS contact_search_name_trgm_idx ON contact_search USING gin (name gin_trgm_ops);
