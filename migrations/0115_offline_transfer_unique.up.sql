-- One bank transfer is credited once, whatever account reports it
-- (pkg/payment/offline). A transfer is its method, the platform's card or Sheba it
-- went to (destination; '' for the reports made before it was recorded) and the
-- bank's tracking number. Reports of the same transfer made before this migration in
-- different accounts stay, the later ones marked duplicate_of the earliest: the
-- reviewer sees them and approving one is refused while another is approved.
ALTER TABLE offline_payments
    ADD COLUMN destination  text NOT NULL DEFAULT '',
    ADD COLUMN duplicate_of bigint REFERENCES offline_payments (id);

UPDATE offline_payments p SET duplicate_of = f.first
FROM (SELECT id, first_value(id) OVER (PARTITION BY method, tracking_number ORDER BY id) AS first
      FROM offline_payments WHERE state <> 'rejected') f
WHERE p.id = f.id AND f.first <> p.id;

DROP INDEX offline_payments_tracking;
CREATE UNIQUE INDEX offline_payments_transfer ON offline_payments (method, destination, tracking_number)
    WHERE state <> 'rejected' AND duplicate_of IS NULL;
-- Every report of a transfer, for the reviewer and the check of a new report.
CREATE INDEX offline_payments_tracking_lookup ON offline_payments (method, tracking_number);
