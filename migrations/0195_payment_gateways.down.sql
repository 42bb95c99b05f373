DROP INDEX IF EXISTS payments_bank_txn;
ALTER TABLE payments DROP COLUMN IF EXISTS bank_txn;
DELETE FROM settings WHERE key = 'payment_gateway';
