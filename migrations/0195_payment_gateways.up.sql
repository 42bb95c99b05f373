-- Real payment gateways (Zarinpal, SEP) beside the sandbox bank (pkg/payment).
--
-- bank_txn is the bank's reference of the paid transaction when the gateway verifies
-- by it rather than by the authority (SEP's RefNum, known from the callback only): it
-- is recorded before the verify call, so the settle task can verify or return the
-- payment when that call fails; one bank transaction belongs to one payment.
-- The staff's choice of gateway and its merchant/terminal ids (sealed) are the
-- settings row 'payment_gateway', written by the back office; absent, PAYMENT_GATEWAY
-- is the active gateway.
ALTER TABLE payments ADD COLUMN bank_txn text NOT NULL DEFAULT '';
CREATE UNIQUE INDEX payments_bank_txn ON payments (gateway, bank_txn) WHERE bank_txn <> '';
