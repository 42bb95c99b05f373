-- Invoices (pkg/invoice): the PDF of a paid payment's official invoice, made once on
-- first download and kept, so the same invoice is served every time.
CREATE TABLE invoices (
    payment_id bigint PRIMARY KEY REFERENCES payments (id),
    account_id bigint NOT NULL REFERENCES accounts (id),
    pdf        bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
