-- Low-balance alert (spec §9): the owner's threshold in rials (at least 200,000) and
-- the ledger row after which the last alert was sent. notified_after is NULL while
-- the alert is armed; once set, a ledger row after it whose balance_after reaches the
-- threshold (a recharge above it) arms the alert again.
CREATE TABLE wallet_alerts (
    account_id     bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    threshold      bigint NOT NULL CONSTRAINT wallet_alerts_threshold_min CHECK (threshold >= 200000),
    notified_after bigint,
    updated_by     bigint REFERENCES users(id) ON DELETE SET NULL,
    updated_at     timestamptz NOT NULL DEFAULT now()
);

-- The transactions page filters the ledger by account and date, newest first.
CREATE INDEX ledger_account_created_idx ON ledger (account_id, created_at DESC, id DESC);
