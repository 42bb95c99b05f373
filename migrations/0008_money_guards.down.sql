ALTER TABLE sends DROP COLUMN request_hash;
ALTER TABLE sends DROP COLUMN unpaid;
ALTER TABLE wallets DROP CONSTRAINT wallets_balance_floor;
ALTER TABLE wallets DROP COLUMN credit_limit;
