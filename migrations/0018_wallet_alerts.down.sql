DROP INDEX IF EXISTS ledger_account_created_idx;
DROP TABLE IF EXISTS wallet_alerts;
