-- migrate: no-transaction
DROP INDEX CONCURRENTLY IF EXISTS contacts_birth_md_idx;
