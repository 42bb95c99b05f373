-- migrate: no-transaction
DROP INDEX CONCURRENTLY IF EXISTS sends_holding;
