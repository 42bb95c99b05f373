-- A receipt waiting for its message id keeps the carrier's state text (EXPIRED,
-- UNDELIV, REJECTD …): applied later, it still records why the message did not
-- reach the handset (recipients.error, shown in Persian by the reports).
ALTER TABLE pending_receipts ADD COLUMN state text NOT NULL DEFAULT '';
