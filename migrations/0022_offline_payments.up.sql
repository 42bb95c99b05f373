-- Offline payments (pkg/payment/offline): card-to-card and bank transfers the
-- customer reports with a receipt; staff review them (review_items kind
-- offline_payment) before the wallet is credited.

-- One reported transfer. amount is what the customer transferred; tax the 10%
-- deducted from a card-to-card transfer (spec §9; 0 for a bank transfer); credit
-- what the wallet receives on approval (amount - tax). state moves from pending to
-- approved or rejected once; reason is the rejection's reason shown to the customer.
CREATE TABLE offline_payments (
    id              bigserial PRIMARY KEY,
    account_id      bigint NOT NULL REFERENCES accounts (id),
    user_id         bigint REFERENCES users (id),
    method          text NOT NULL CHECK (method IN ('card', 'bank')),
    amount          bigint NOT NULL CHECK (amount > 0),
    tax             bigint NOT NULL CHECK (tax >= 0),
    credit          bigint NOT NULL CHECK (credit = amount - tax AND credit > 0),
    source          text NOT NULL,
    tracking_number text NOT NULL,
    transferred_at  timestamptz NOT NULL,
    receipt_key     text NOT NULL,
    receipt_type    text NOT NULL CHECK (receipt_type IN ('image/jpeg', 'image/png', 'application/pdf')),
    receipt_name    text NOT NULL DEFAULT '',
    receipt_size    bigint NOT NULL,
    state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'rejected')),
    reason          text NOT NULL DEFAULT '',
    decided_at      timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX offline_payments_account ON offline_payments (account_id, id DESC);
-- A receipt is reported once: the same tracking number again is refused unless the
-- earlier report was rejected.
CREATE UNIQUE INDEX offline_payments_tracking ON offline_payments (account_id, method, tracking_number)
    WHERE state <> 'rejected';

-- Charge packages pay a bonus credit on top of their amount (content kind charge_package).
ALTER TABLE content_items ADD COLUMN bonus bigint NOT NULL DEFAULT 0 CHECK (bonus >= 0);

-- An online payment started for a package or while a today gift was offered keeps
-- what it was promised; each bonus is its own ledger entry once the payment is paid.
ALTER TABLE payments
    ADD COLUMN package_id   bigint,
    ADD COLUMN bonus        bigint NOT NULL DEFAULT 0 CHECK (bonus >= 0),
    ADD COLUMN bonus_title  text NOT NULL DEFAULT '',
    ADD COLUMN gift_id      bigint,
    ADD COLUMN gift_amount  bigint NOT NULL DEFAULT 0 CHECK (gift_amount >= 0);

-- The today gifts granted: one per account and gift offer, whatever the payments.
CREATE TABLE today_gift_grants (
    account_id bigint NOT NULL REFERENCES accounts (id),
    gift_id    bigint NOT NULL,
    payment_id bigint NOT NULL REFERENCES payments (id),
    amount     bigint NOT NULL CHECK (amount > 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, gift_id)
);
