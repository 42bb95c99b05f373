DROP INDEX offline_payments_tracking_lookup;
DROP INDEX offline_payments_transfer;
CREATE UNIQUE INDEX offline_payments_tracking ON offline_payments (account_id, method, tracking_number)
    WHERE state <> 'rejected';
ALTER TABLE offline_payments DROP COLUMN duplicate_of, DROP COLUMN destination;
