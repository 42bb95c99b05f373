ALTER TABLE payments DROP COLUMN IF EXISTS bank_txn;
DELETE FROM settings WHERE key = 'payment_gateway';
