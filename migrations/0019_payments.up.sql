-- Online payments (pkg/payment) and the sandbox bank's own store (pkg/payment/sandbox).

-- One online payment of an account. amount is what the wallet is credited, tax the
-- 10% added on top (spec §9), total what the payer pays the bank. state moves from
-- pending to paid, failed or expired exactly once; a failed payment whose money the
-- bank took is returned within 72 hours (refund_state due → returned).
CREATE TABLE payments (
    id            bigserial PRIMARY KEY,
    account_id    bigint NOT NULL REFERENCES accounts (id),
    user_id       bigint REFERENCES users (id),
    amount        bigint NOT NULL CHECK (amount > 0),
    tax           bigint NOT NULL CHECK (tax >= 0),
    total         bigint NOT NULL CHECK (total = amount + tax),
    gateway       text NOT NULL,
    authority     text NOT NULL DEFAULT '',
    state         text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'paid', 'failed', 'expired')),
    bank_ref      text NOT NULL DEFAULT '',
    return_to     text NOT NULL DEFAULT '/wallet/payment-result',
    description   text NOT NULL DEFAULT '',
    refund_state  text NOT NULL DEFAULT '' CHECK (refund_state IN ('', 'due', 'returned')),
    refund_due_at timestamptz,
    refunded_at   timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    settled_at    timestamptz
);
CREATE UNIQUE INDEX payments_authority ON payments (gateway, authority) WHERE authority <> '';
CREATE INDEX payments_account ON payments (account_id, id DESC);
CREATE INDEX payments_pending ON payments (created_at) WHERE state = 'pending';
CREATE INDEX payments_refund_due ON payments (refund_due_at) WHERE refund_state = 'due';

-- The sandbox bank's sessions: a fake PSP keeps its own state, apart from the product.
CREATE TABLE sandbox_bank_payments (
    authority   text PRIMARY KEY,
    amount      bigint NOT NULL CHECK (amount > 0),
    callback    text NOT NULL,
    description text NOT NULL DEFAULT '',
    state       text NOT NULL DEFAULT 'created'
        CHECK (state IN ('created', 'paid', 'failed', 'canceled', 'taken', 'verified', 'reversed')),
    ref_id      text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    paid_at     timestamptz,
    verified_at timestamptz,
    reversed_at timestamptz
);
