ALTER TABLE pending_receipts DROP COLUMN state;
