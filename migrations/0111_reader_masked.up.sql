-- Whether a secretary's entry, a contest's or poll's participant and a gift's code
-- show their sender masked is fixed when the row is written, from the message that
-- wrote it (inbox.masked), never read again from bank_reached: a row shown whole
-- turning masked after a bank send would tell that the send reached the number
-- (docs/targeted-sends.md, «Replies from the bank»). Existing rows keep what they
-- showed.
ALTER TABLE reader_entries ADD COLUMN masked boolean NOT NULL DEFAULT false;
ALTER TABLE reader_participants ADD COLUMN masked boolean NOT NULL DEFAULT false;
ALTER TABLE reader_codes ADD COLUMN masked boolean NOT NULL DEFAULT false;
UPDATE reader_entries e SET masked = true
    WHERE EXISTS (SELECT 1 FROM bank_reached k WHERE k.account_id = e.account_id AND k.mobile = e.sender);
UPDATE reader_participants p SET masked = true FROM readers r
    WHERE r.id = p.reader_id AND EXISTS (SELECT 1 FROM bank_reached k WHERE k.account_id = r.account_id AND k.mobile = p.sender);
UPDATE reader_codes c SET masked = true FROM readers r
    WHERE r.id = c.reader_id AND EXISTS (SELECT 1 FROM bank_reached k WHERE k.account_id = r.account_id AND k.mobile = c.sender);

-- A message is masked only when no earlier message of its sender was shown whole
-- (pkg/inbox maskedSender): the account's whole messages by sender.
CREATE INDEX inbox_whole_sender_idx ON inbox (account_id, sender) WHERE NOT masked;
