-- A receipt waiting for its message id keeps every key it may match by: carriers
-- write the id in the receipt in another form than the submit response (decimal
-- for hex, zero-padded, upper case), so the pending retry must try them all as
-- the direct path does.
ALTER TABLE pending_receipts ADD COLUMN alt_ids text[] NOT NULL DEFAULT '{}';
