-- migrate: no-transaction
DROP INDEX CONCURRENTLY IF EXISTS contact_search_name_trgm_idx;
