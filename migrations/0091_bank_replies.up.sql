-- Replies from the number bank (docs/targeted-sends.md, "Replies"). The numbers of
-- the bank each account has sent to through a targeted send (written at the
-- send's expansion): a message arriving from one of them is stored masked, shown
-- as 0912***4567 everywhere the customer reads it, and answered by its id.
CREATE TABLE bank_reached (
    account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    mobile     text NOT NULL,
    PRIMARY KEY (account_id, mobile)
);

ALTER TABLE inbox ADD COLUMN masked boolean NOT NULL DEFAULT false;

-- A reply to a masked message: its recipient is masked in reports and webhooks
-- as a bank send's are.
ALTER TABLE sends ADD COLUMN masked boolean NOT NULL DEFAULT false;

-- A number as the customer sees it: masked (989121234567 → 0912***4567) or whole.
CREATE FUNCTION shown_mobile(masked boolean, mobile text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN masked THEN '0' || substr(mobile, 3, 3) || '***' || right(mobile, 4) ELSE mobile END
$$;
