-- Opt-outs of numbers the account knows only through the bank
-- (docs/targeted-sends.md, «The account's lists»). A «11» from a number a bank
-- send of the account reached (bank_reached) is kept here, never on the
-- account's cancel-11 list: that list is read by number (quotes of quick sends,
-- phonebook counts, the lists page), and a masked sender on it would be unmasked
-- by a lookup. It is honoured by the account's masked sends (replies by id); «12»
-- from the number removes it.
CREATE TABLE bank_optout (
    account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    mobile     text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, mobile)
);
