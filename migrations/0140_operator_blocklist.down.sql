ALTER TABLE pending_receipts DROP COLUMN IF EXISTS err;
ALTER TABLE sends DROP COLUMN IF EXISTS operator_blocked;
DROP TABLE IF EXISTS operator_blocklist_gen;
DROP TABLE IF EXISTS operator_blocklist;
