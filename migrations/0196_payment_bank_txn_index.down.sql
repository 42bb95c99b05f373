-- migrate: no-transaction
DROP INDEX CONCURRENTLY IF EXISTS payments_bank_txn;
