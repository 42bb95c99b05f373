ALTER TABLE pending_receipts DROP COLUMN alt_ids;
