-- migrate: no-transaction
-- One bank transaction belongs to one payment (payments.bank_txn, 0195; pkg/payment
-- bindTxn), built while payments stays writable.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS payments_bank_txn ON payments (gateway, bank_txn) WHERE bank_txn <> '';
