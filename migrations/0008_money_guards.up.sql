-- Money guards: the database refuses a balance below the account's credit limit
-- (0 unless an operator grants one), a send records the recipients expansion found
-- beyond what its credit covered (dropped, never sent unpaid), and an idempotency
-- key remembers the request it was first used with.

ALTER TABLE wallets ADD COLUMN credit_limit bigint NOT NULL DEFAULT 0
    CONSTRAINT wallets_credit_limit_check CHECK (credit_limit >= 0);
-- A wallet already below zero (sent unpaid before this guard) keeps its debt as an
-- explicit limit, so the constraint holds and no money moves outside the ledger.
UPDATE wallets SET credit_limit = -balance WHERE balance < 0;
ALTER TABLE wallets ADD CONSTRAINT wallets_balance_floor CHECK (balance >= -credit_limit);

-- unpaid: recipients dropped at expansion because the credit could not pay for them
-- (stored as rejected, cost 0, with the reason in recipients.error).
ALTER TABLE sends ADD COLUMN unpaid int NOT NULL DEFAULT 0;
-- request_hash: SHA-256 of the request an Idempotency-Key was first used with.
ALTER TABLE sends ADD COLUMN request_hash text;
